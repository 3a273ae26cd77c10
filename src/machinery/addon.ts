// Weblate's automatic translation add-on (`weblate.autotranslate.autotranslate`): after a sync or pull that brought
// new strings, every translation of the component is filled as its configuration says.
import { type Config, type EngineId, type ProjectConfig, projectMachinery } from '../config/config.js';
import { State } from '../domain/unit.js';
import { type Catalog, loadCatalog } from '../store/catalog.repo.js';
import type { Store } from '../store/store.js';
import { type AutoTranslateJob, autoTranslate } from './autotranslate.js';
import { Machinery } from './machinery.js';

/** The add-on's settings (Weblate's names) with their defaults; `component` is a slug of the project ('' for all). */
export interface AutoTranslateAddonSettings {
  mode: 'suggest' | 'translate' | 'fuzzy';
  filter_type: 'todo' | 'nottranslated' | 'fuzzy' | 'all';
  auto_source: 'others' | 'mt';
  component: string;
  engines: string[];
  threshold: number;
}

const DEFAULTS: AutoTranslateAddonSettings = { mode: 'suggest', filter_type: 'todo', auto_source: 'others', component: '', engines: [], threshold: 80 };
/** The units a filter_type selects, by state (read-only ones are never filled). */
function filterOf(filterType: AutoTranslateAddonSettings['filter_type']): AutoTranslateJob['filter'] {
  if (filterType === 'fuzzy') return { kind: 'number', field: 'state', op: '=', value: State.FUZZY };
  const below = { nottranslated: State.FUZZY, todo: State.TRANSLATED, all: State.READONLY }[filterType];
  return { kind: 'number', field: 'state', op: '<', value: below };
}

/**
 * Runs the component's automatic translation add-on on each of its translations (as nobody: the changes' user is
 * empty, their author the automatic translation bot). Returns one line per translation that changed or failed.
 */
export async function runAutoTranslateAddon(store: Store, config: Config, project: ProjectConfig, componentSlug: string): Promise<string[]> {
  const component = project.components.find((c) => c.slug === componentSlug);
  const addon = component?.addons.find((a) => a.name === 'weblate.autotranslate.autotranslate');
  if (!component || !addon) return [];
  const settings = { ...DEFAULTS, ...(addon.configuration as Partial<AutoTranslateAddonSettings>) };
  const catalog: Catalog = await store.read(loadCatalog);
  const row = catalog.componentsByPath.get(`${project.slug}/${component.slug}`);
  if (!row) return [];
  const translations = catalog.translationsByComponent.get(row.id) ?? [];
  const source = translations.find((t) => t.isSource);
  if (!source) return [];
  const inProject = catalog.components.filter((c) => c.projectId === row.projectId && c.id !== row.id);
  const others = settings.component === '' ? inProject : inProject.filter((c) => c.slug === settings.component);
  const machinery = new Machinery(store, projectMachinery(config, project));
  const lines: string[] = [];
  for (const t of translations.filter((x) => !x.isSource)) {
    const code = (id: number, fallback: string) => catalog.languages.get(id)?.code ?? fallback;
    const job: AutoTranslateJob = {
      translationId: t.id,
      componentId: row.id,
      pair: {
        source: code(source.languageId, source.languageCode),
        target: code(t.languageId, t.languageCode),
        sourceId: source.languageId,
        targetId: t.languageId,
      },
      mode: settings.mode,
      filter: filterOf(settings.filter_type),
      overwrite: settings.mode === 'translate' && settings.filter_type === 'all',
      source:
        settings.auto_source === 'others'
          ? { kind: 'others', components: others.map((c) => c.id) }
          : { kind: 'mt', engines: settings.engines.filter((e): e is EngineId => machinery.usable(e)), threshold: settings.threshold },
      userId: null,
      projects: null,
    };
    const log: string[] = [];
    const outcome = await autoTranslate(store, machinery, job, { progress: () => {}, log: (line) => log.push(line) });
    const failures = log.filter((line) => line !== outcome.message);
    if (outcome.updated > 0 || failures.length > 0) lines.push(`automatic translation of ${t.languageCode}: ${[outcome.message, ...failures].join('; ')}`);
  }
  return lines;
}
