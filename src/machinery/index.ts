// Machine translation: the engines (Weblate's machinery) behind one service, and automatic translation.
export { EngineError, type EngineSuggestion, type LanguagePair, MACHINE_QUALITY } from './engine.js';
export { ENGINE_IDS, type EngineAnswer, Machinery } from './machinery.js';
export { protect, restore } from './placeables.js';
export { type AutoMode, type AutoTranslateJob, type AutoTranslateOutcome, autoTranslate } from './autotranslate.js';
export { type Task, type TaskReporter, Tasks } from './tasks.js';
