// Quality checks as Weblate defines them: registry, flags, and the pure functions that run them.
export { type FlagValue, type Flags, flagText, mergeFlags, parseFlags } from './flags.js';
export { CHECKS, CHECKS_BY_ID, type CheckInfo, findCheck, formatFlags, strictFormatPlurals } from './registry.js';
export {
  type CheckContext,
  type CheckedUnit,
  type GroupMember,
  type SourceFacts,
  checkApplies,
  inconsistentMembers,
  oneNumberForms,
  sourceChecks,
  translationChecks,
} from './run.js';
export { type TranslationChecking, computeChecks, formsOf, translationCheckingOf } from './checking.js';
