// Quality checks as Weblate defines them: registry, flags, and the pure functions that run them.
export { type FlagValue, type Flags, flagText, mergeFlags, parseFlags } from './flags.js';
export { CHECKS, CHECKS_BY_ID, type CheckInfo, findCheck, formatFlags } from './registry.js';
export { type CheckContext, type CheckedUnit, type SourceFacts, oneNumberForms, sourceChecks, translationChecks } from './run.js';
