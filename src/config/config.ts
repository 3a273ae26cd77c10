// Loads, validates and resolves the tms configuration file (tms.config.json).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ConfigError, FormatParseError } from '../domain/errors.js';
import type { FormatId } from '../formats/format.js';
import { parseJsonText } from '../formats/json/syntax.js';
import { isPostgresUrl } from './database.js';
import { DISCOVERY_ADDON, type Discovered, discover, readRule, repositoryFiles } from './discovery.js';

export type { Discovered };
import { type ErrorObject, configValidator } from './validator.js';

/**
 * The add-ons tms runs (Weblate's names): PO files updated from the POT after a sync, MO files beside committed PO
 * files, automatic translation, components discovered from the repository's files.
 */
export const ADDON_NAMES = ['weblate.gettext.msgmerge', 'weblate.gettext.mo', 'weblate.autotranslate.autotranslate', 'weblate.discovery.discovery'] as const;
export type AddonName = (typeof ADDON_NAMES)[number];

export interface ComponentConfig {
  name: string;
  slug: string;
  vcs: 'git' | 'local';
  /** Repository URL or path as written; credentials allowed (never shown). */
  repo: string;
  branch: string;
  push: string;
  push_branch: string;
  filemask: string;
  screenshot_filemask: string;
  template: string;
  edit_template: boolean;
  intermediate: string;
  new_base: string;
  file_format: FormatId;
  source_language: string;
  license: string;
  license_url: string;
  agreement: string;
  new_lang: 'contact' | 'url' | 'add' | 'none';
  language_code_style: string;
  check_flags: string;
  priority: number;
  enforced_checks: string[];
  /** Weblate's add-ons installed on the component, in order. */
  addons: Array<{ name: AddonName; configuration: Record<string, unknown> }>;
  restricted: boolean;
  repoweb: string;
  report_source_bugs: string;
  merge_style: 'merge' | 'rebase' | 'merge_noff';
  commit_message: string;
  add_message: string;
  delete_message: string;
  merge_message: string;
  addon_message: string;
  pull_message: string;
  allow_translation_propagation: boolean;
  manage_units: boolean;
  enable_suggestions: boolean;
  suggestion_voting: boolean;
  suggestion_autoaccept: number;
  push_on_commit: boolean;
  commit_pending_age: number;
  auto_lock_error: boolean;
  language_regex: string;
  key_filter: string;
  variant_regex: string;
  is_glossary: boolean;
  glossary_color: string;
  secondary_language: string | null;
  category: null;
  linked_component: null;
  /** tms: credentials for an http(s) repo, when not in the URL. */
  username: string;
  password: string;
  /** tms: shallow clone depth (0 = full history). */
  depth: number;
  /** tms: the repository location resolved: an absolute path for local repositories, the URL otherwise. */
  repoResolved: string;
  /**
   * tms: the component whose repository this one shares (`repo: "weblate://<project>/<component>"`, Weblate's
   * repository link), or null. A linked component uses that component's working copy, remote, branch and push
   * settings: one clone, one fetch and one push for all of them.
   */
  linkedTo: { project: string; component: string } | null;
  /**
   * tms: `<project>/<component>` of the component whose discovery add-on made this one (it is in no configuration
   * file), or null.
   */
  discoveredBy: string | null;
}

export interface ProjectConfig {
  name: string;
  slug: string;
  web: string;
  instructions: string;
  translation_review: boolean;
  source_review: boolean;
  set_language_team: boolean;
  enable_hooks: boolean;
  language_aliases: string;
  check_flags: string;
  secondary_language: string | null;
  enforced_2fa: boolean;
  access_control: 0 | 1 | 100 | 200;
  hook_secret: string;
  /** Engines of the project's own, added to the site's (or replacing a site engine's settings). */
  machinery: MachineryConfig;
  /** Site engines this project does not use. */
  machinery_exclude: EngineId[];
  components: ComponentConfig[];
}

/** What every machine translation engine takes: the longest a call may last, and how many may run at once. */
export interface EngineLimits {
  timeout_ms: number;
  max_in_flight: number;
}

/** The engines configured, by Weblate's ids; secrets (`key`) are resolved from the environment when written so. */
export interface MachineryConfig {
  'apertium-apy'?: EngineLimits & { url: string };
  libretranslate?: EngineLimits & { url: string; key?: string };
  deepl?: EngineLimits & { url: string; key: string; formality: string };
  openai?: EngineLimits & { base_url: string; key?: string; model: string; persona: string; style: string };
  weblate?: EngineLimits;
  'weblate-translation-memory'?: EngineLimits;
}

export type EngineId = keyof MachineryConfig;

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface Config {
  /** Absolute path of the file this was read from. */
  file: string;
  site_url: string;
  site_title: string;
  /** Absolute path of the SQLite database, or a `postgresql://` URL (may hold a password: show it with redactUrl). */
  database: string;
  /** Absolute path of the working copies' folder; `TMS_REPOS_DIR` overrides (each node of several keeps its own). */
  repos_dir: string;
  /** How long a repository operation waits for another one on the same component; `TMS_LOCK_TIMEOUT_MS` overrides. */
  lock_timeout_ms: number;
  /** How long a git remote may stay silent before a fetch, push or clone gives up (seconds). */
  remote_timeout_s: number;
  /** The largest multipart upload the API reads (413 beyond). */
  upload_max_bytes: number;
  /** The largest translation file a sync reads (a larger one fails with a clear error, its old strings kept). */
  max_file_bytes: number;
  /** The longest text (in characters) an edit may store, per plural form (400 beyond). */
  max_string_chars: number;
  /** Threads a sync of many components uses: 1 parses on the syncing thread, 0 the cores available (`tms sync --threads`). */
  sync_threads: number;
  /** Failed API authentications one client address may make per minute before it gets 429. */
  auth_failures_per_minute: number;
  /** What `tms serve` logs: request lines are "info". */
  log_level: LogLevel;
  /** Weblate's API throttling: DRF rates (`100/day`), empty for no limit. Anonymous callers are limited by address. */
  rate_limit: { anonymous: string; user: string };
  /** How often `tms serve` commits pending edits older than their component's `commit_pending_age` (seconds). */
  commit_pending_check_seconds: number;
  committer: { name: string; email: string };
  hooks: { enabled: boolean; secret: string };
  /** Machine translation engines (Weblate's machinery), by engine id. */
  machinery: MachineryConfig;
  projects: ProjectConfig[];
}

/** `projects[0].components[2].filemask` from Ajv's `/projects/0/components/2/filemask`. */
function jsonPath(instancePath: string, extra?: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra) parts.push(extra);
  let out = '';
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : out === '' ? p : `.${p}`;
  return out || '(root)';
}

/** Where JSON text stops being JSON, as the formats' strict reader (with offsets) finds it. */
function jsonErrorAt(text: string, file: string): { line: number; column: number; reason: string } | null {
  try {
    parseJsonText(text, file);
  } catch (e) {
    if (e instanceof FormatParseError) return e.data;
  }
  return null;
}

/** ` (did you mean "filemask"?)` when a known key is a likely typo of `key` (at most a third of it differs). */
function didYouMean(key: string, known: readonly string[]): string {
  if (known.length === 0) return '';
  // required here, on the way to an error: a valid configuration does not load it
  const { closest, distance } = createRequire(import.meta.url)('fastest-levenshtein') as typeof import('fastest-levenshtein');
  const guess = closest(key, known as string[]);
  return distance(key, guess) <= Math.max(1, Math.floor(key.length / 3)) ? ` (did you mean "${guess}"?)` : '';
}

function describe(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  const custom = (error.parentSchema as Record<string, unknown> | undefined)?.['x-message'];
  switch (error.keyword) {
    case 'required':
      return `${jsonPath(error.instancePath, String(p.missingProperty))}: is required`;
    case 'additionalProperties': {
      const key = String(p.additionalProperty);
      const known = Object.keys(((error.parentSchema as { properties?: object } | undefined)?.properties ?? {}) as object).filter((k) => k !== '$schema');
      return `${jsonPath(error.instancePath, key)}: is not a known key${didYouMean(key, known)}`;
    }
    case 'enum':
      return `${jsonPath(error.instancePath)}: must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'pattern':
      return `${jsonPath(error.instancePath)}: ${typeof custom === 'string' ? custom : `must match ${String(p.pattern)}`}`;
    default:
      return `${jsonPath(error.instancePath)}: ${error.message ?? 'is invalid'}`;
  }
}

/** Weblate's repository link: `weblate://<project>/<component>`. */
const LINK_URL = /^weblate:\/\/([^/]+)\/([^/]+)\/?$/;

/** The component a `weblate://project/component` repository names, or null for any other repository. */
export function repositoryLink(repo: string): { project: string; component: string } | null {
  const m = LINK_URL.exec(repo);
  return m ? { project: m[1]!, component: m[2]! } : null;
}

/** What a linked component takes from the component it links to: where and how its repository is reached. */
const SHARED_KEYS = ['vcs', 'branch', 'push', 'push_branch', 'username', 'password', 'depth'] as const;

/**
 * Problems of `weblate://` repository links, as Weblate refuses them: a link to a component that does not exist, to
 * itself, or to a component that is linked itself (no chains, hence no loops); a link that also sets what the
 * linked repository decides (branch, push, credentials, depth).
 */
function linkProblems(config: Omit<Config, 'file'>): string[] {
  const problems: string[] = [];
  const find = (project: string, component: string) => config.projects.find((p) => p.slug === project)?.components.find((c) => c.slug === component);
  config.projects.forEach((project, pi) => {
    project.components.forEach((c, ci) => {
      const at = `projects[${pi}].components[${ci}]`;
      if (c.repo.startsWith('weblate:') && !repositoryLink(c.repo)) {
        problems.push(`${at}.repo: a repository link must be "weblate://<project>/<component>"`);
        return;
      }
      const link = repositoryLink(c.repo);
      if (!link) return;
      const target = find(link.project, link.component);
      if (link.project === project.slug && link.component === c.slug) problems.push(`${at}.repo: links the component to itself`);
      else if (!target) problems.push(`${at}.repo: links to "${link.project}/${link.component}", which is not a configured component`);
      else if (repositoryLink(target.repo)) {
        problems.push(
          `${at}.repo: links to "${link.project}/${link.component}", which is linked itself (to "${target.repo}"); link to a component with its own repository`,
        );
      } else if (target.vcs !== 'git') problems.push(`${at}.repo: links to "${link.project}/${link.component}", which has no git repository (vcs "local")`);
      for (const key of SHARED_KEYS) {
        if (key === 'vcs' ? c.vcs !== 'git' : c[key] !== (key === 'depth' ? 0 : '')) {
          problems.push(`${at}.${key}: a linked component takes it from the component it links to; leave it out`);
        }
      }
    });
  });
  return problems;
}

function isUrl(repo: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(repo) || /^[^/\\]+@[^/\\]+:/.test(repo);
}

/** Resolves a component's repository: URLs stay, `file://` URLs and paths become absolute paths. */
export function resolveRepo(repo: string, baseDir: string): string {
  if (repo === '' || repo === 'local:') return repo;
  if (repo.startsWith('file://')) return path.resolve(baseDir, decodeURIComponent(repo.slice('file://'.length)));
  if (isUrl(repo)) return repo;
  return path.resolve(baseDir, repo);
}

function semanticProblems(config: Omit<Config, 'file'>): string[] {
  const problems: string[] = [];
  const projectSlugs = new Set<string>();
  config.projects.forEach((project, pi) => {
    const at = `projects[${pi}]`;
    if (projectSlugs.has(project.slug)) problems.push(`${at}.slug: duplicate project slug "${project.slug}"`);
    projectSlugs.add(project.slug);
    const componentSlugs = new Set<string>();
    project.components.forEach((c, ci) => {
      const cat = `${at}.components[${ci}]`;
      if (componentSlugs.has(c.slug)) problems.push(`${cat}.slug: duplicate component slug "${c.slug}" in project "${project.slug}"`);
      componentSlugs.add(c.slug);
      if (c.vcs === 'local' && c.repo !== '' && c.repo !== 'local:' && !repositoryLink(c.repo))
        problems.push(`${cat}.repo: must be "local:" when vcs is "local"`);
      if (c.vcs === 'git' && (c.repo === '' || c.repo === 'local:')) problems.push(`${cat}.repo: is required when vcs is "git"`);
      if (c.file_format === 'tbx' && c.template !== '') problems.push(`${cat}.template: must be empty for the tbx format (always bilingual)`);
      if (c.file_format === 'webextension' && c.template === '') problems.push(`${cat}.template: is required for the webextension format`);
      if (c.file_format === 'po' && c.template !== '') {
        problems.push(`${cat}.template: must be empty for the po format (bilingual; the POT is new_base; po-mono takes a template)`);
      }
      if (c.file_format === 'po-mono' && c.template === '') problems.push(`${cat}.template: is required for the po-mono format`);
      c.addons.forEach((a, ai) => {
        const where = `${cat}.addons[${ai}]`;
        if (a.name === DISCOVERY_ADDON) {
          const { problems: wrong } = readRule(a.configuration);
          for (const p of wrong) problems.push(`${where}.configuration.${p}`);
          if (repositoryLink(c.repo) || c.vcs !== 'git') problems.push(`${where}: ${a.name} needs a component with its own git repository`);
          if (c.addons.findIndex((b) => b.name === a.name) !== ai) problems.push(`${where}: ${a.name} is installed twice`);
          return;
        }
        const misfit = addonMisfit(a.name, c);
        if (misfit) problems.push(`${where}: ${a.name} ${misfit}`);
        if (c.addons.findIndex((b) => b.name === a.name) !== ai) problems.push(`${where}: ${a.name} is installed twice`);
      });
      for (const [ai, a] of c.addons.entries()) {
        if (a.name === 'weblate.autotranslate.autotranslate')
          problems.push(...autoTranslateProblems(a.configuration ?? {}, `${cat}.addons[${ai}].configuration`, projectMachinery(config, project)));
      }
      if (c.intermediate !== '' && c.template === '') problems.push(`${cat}.intermediate: needs a template`);
      try {
        new RegExp(c.language_regex);
      } catch (e) {
        problems.push(`${cat}.language_regex: is not a valid regular expression (${(e as Error).message})`);
      }
      for (const key of ['filemask', 'template', 'new_base', 'intermediate'] as const) {
        const v = c[key];
        if (v && (path.isAbsolute(v) || v.split(/[\\/]/).includes('..'))) problems.push(`${cat}.${key}: must be a path inside the repository`);
      }
    });
  });
  return problems;
}

/**
 * Parses and validates configuration text; every problem is reported with its JSON path.
 * @example parseConfig('{"projects": []}', '/srv/tms/tms.config.json')
 */
export function parseConfig(text: string, file: string, env: NodeJS.ProcessEnv = process.env): Config {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    // JSON.parse says where only as a character offset: the strict JSON reader of the formats says line and column.
    const at = jsonErrorAt(text, file);
    const problem = at ? `${at.line}:${at.column}: not valid JSON: ${at.reason}` : `not valid JSON: ${(e as Error).message}`;
    throw new ConfigError(`${file}:${at ? '' : ' '}${problem}`, { file, problems: [problem] });
  }
  const validate = configValidator();
  if (!validate(raw)) {
    const problems = [...new Set((validate.errors ?? []).map(describe))];
    throw new ConfigError(`${file}: invalid configuration:\n  ${problems.join('\n  ')}`, { file, problems });
  }
  const config = raw as unknown as Omit<Config, 'file'>;
  const problems = [...semanticProblems(config), ...linkProblems(config)];
  if (problems.length > 0) {
    throw new ConfigError(`${file}: invalid configuration:\n  ${problems.join('\n  ')}`, { file, problems });
  }
  const secrets = [
    ...resolveSecrets(config.machinery as Record<string, Record<string, unknown>>, env, 'machinery'),
    ...config.projects.flatMap((p, i) => resolveSecrets((p.machinery ?? {}) as Record<string, Record<string, unknown>>, env, `projects[${i}].machinery`)),
  ];
  if (secrets.length > 0) throw new ConfigError(`${file}: invalid configuration:\n  ${secrets.join('\n  ')}`, { file, problems: secrets });
  const dir = path.dirname(file);
  for (const project of config.projects) {
    for (const c of project.components) {
      c.discoveredBy = null;
      c.linkedTo = repositoryLink(c.repo);
      if (c.linkedTo) continue;
      if (c.vcs === 'local') c.repo = 'local:';
      c.repoResolved = resolveRepo(c.repo, dir);
    }
  }
  // a linked component reaches its repository as the component it links to does
  for (const project of config.projects) {
    for (const c of project.components) {
      if (!c.linkedTo) continue;
      const target = findComponentConfig(config, c.linkedTo.project, c.linkedTo.component)!;
      for (const key of SHARED_KEYS) (c as unknown as Record<string, unknown>)[key] = target[key];
      c.repoResolved = target.repoResolved;
    }
  }
  return {
    ...config,
    file,
    database: isPostgresUrl(config.database) ? config.database : path.resolve(dir, config.database),
    // each node of several on one database keeps its own working copies
    repos_dir: env.TMS_REPOS_DIR ? path.resolve(env.TMS_REPOS_DIR) : path.resolve(dir, config.repos_dir),
    lock_timeout_ms: lockTimeout(env) ?? config.lock_timeout_ms,
  };
}

const AUTOTRANSLATE_CHOICES: Record<string, readonly string[]> = {
  mode: ['suggest', 'translate', 'fuzzy'],
  filter_type: ['todo', 'nottranslated', 'fuzzy', 'all'],
  auto_source: ['others', 'mt'],
};
const AUTOTRANSLATE_SETTINGS = ['mode', 'filter_type', 'auto_source', 'component', 'engines', 'threshold'];

/** The problems of an automatic translation add-on's configuration (Weblate's settings), each with its JSON path. */
function autoTranslateProblems(configuration: Record<string, unknown>, at: string, machinery: MachineryConfig | undefined): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(configuration)) {
    if (!AUTOTRANSLATE_SETTINGS.includes(key)) problems.push(`${at}.${key}: is not a setting of weblate.autotranslate.autotranslate`);
    else if (AUTOTRANSLATE_CHOICES[key] && !AUTOTRANSLATE_CHOICES[key].includes(String(value)))
      problems.push(`${at}.${key}: must be one of ${AUTOTRANSLATE_CHOICES[key].map((v) => JSON.stringify(v)).join(', ')}`);
  }
  const { threshold, engines, component } = configuration;
  if (threshold !== undefined && !(Number.isInteger(threshold) && (threshold as number) >= 1 && (threshold as number) <= 100))
    problems.push(`${at}.threshold: must be an integer from 1 to 100`);
  if (component !== undefined && typeof component !== 'string') problems.push(`${at}.component: must be a component slug of the project`);
  if (engines !== undefined && !Array.isArray(engines)) problems.push(`${at}.engines: must be a list of engine ids`);
  for (const e of Array.isArray(engines) ? engines : []) {
    const own = e === 'weblate' || e === 'weblate-translation-memory';
    if (!own && !(typeof e === 'string' && machinery && Object.hasOwn(machinery, e))) problems.push(`${at}.engines: "${String(e)}" is not a configured engine`);
  }
  if (configuration.auto_source === 'mt' && (!Array.isArray(engines) || engines.length === 0))
    problems.push(`${at}.engines: machine translation needs at least one engine`);
  return problems;
}

/** Replaces each engine's `{"env": "NAME"}` secret by the variable's value; the problems of variables that are not set. */
function resolveSecrets(machinery: Record<string, Record<string, unknown>>, env: NodeJS.ProcessEnv, at: string): string[] {
  const problems: string[] = [];
  for (const [id, settings] of Object.entries(machinery)) {
    for (const [key, value] of Object.entries(settings)) {
      if (typeof value !== 'object' || value === null || !('env' in value)) continue;
      const name = String((value as { env: unknown }).env);
      const resolved = env[name];
      if (resolved === undefined || resolved === '') problems.push(`${at}.${id}.${key}: the environment variable ${name} is not set`);
      else settings[key] = resolved;
    }
  }
  return problems;
}

/** `TMS_LOCK_TIMEOUT_MS` when it is a positive number (read once, with the configuration). */
function lockTimeout(env: NodeJS.ProcessEnv): number | undefined {
  const value = Number(env.TMS_LOCK_TIMEOUT_MS);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** Where the configuration lives: `--config`, else `TMS_CONFIG`, else `./tms.config.json`. */
export function configPath(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(flag ?? env.TMS_CONFIG ?? 'tms.config.json');
}

/** Reads and validates the configuration file; a missing file is a ConfigError that says so. */
export function loadConfig(file: string): Config {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
    const reason = missing ? 'file not found' : (e as Error).message;
    throw new ConfigError(`${file}: ${reason}`, { file, problems: [reason], ...(missing ? { missing } : {}) });
  }
  return withDiscovered(parseConfig(text, file));
}

/** The components whose discovery add-on found other components, with their rule. */
function discoveryMains(config: Config): { project: ProjectConfig; component: ComponentConfig; configuration: Record<string, unknown> }[] {
  return config.projects.flatMap((project) =>
    project.components.flatMap((component) =>
      component.addons.filter((a) => a.name === DISCOVERY_ADDON).map((a) => ({ project, component, configuration: a.configuration })),
    ),
  );
}

/**
 * The configuration with the components the discovery add-ons find in the working copies already cloned (a
 * component not cloned yet finds nothing until its first sync, which runs `applyDiscovery`).
 */
export function withDiscovered(config: Config): Config {
  for (const main of discoveryMains(config)) {
    // the main component's working copy (component/resolve.ts workingCopyDir: `<repos_dir>/<project>/<component>`)
    const dir = path.join(config.repos_dir, main.project.slug, main.component.slug);
    if (existsSync(path.join(dir, '.git'))) applyDiscovery(config, main.project.slug, main.component.slug, repositoryFiles(dir));
  }
  return config;
}

/** What `applyDiscovery` changed in a project's components. */
export interface DiscoveryChange {
  added: string[];
  updated: string[];
  removed: string[];
  /** Found by the rule but not added: a configured component has the slug or the mask. */
  refused: { slug: string; reason: string }[];
  /** No longer found, but kept (configured) while they hold pending edits (`holding`). */
  kept: string[];
}

/**
 * Brings the components that `<project>/<component>`'s discovery add-on makes from `paths` (the repository's files)
 * into the configuration object: each linked to that component (`weblate://`), with the rule's format, mask,
 * template and new base and the defaults of any component. Components it made before and no longer finds leave the
 * configuration when the rule says `remove`, except those in `holding` (the ones with pending edits: they stay until
 * the edits are committed); `previous` are the ones it made before as the store keeps them.
 * @example applyDiscovery(config, 'hello', 'main', repositoryFiles(dir)).added // ['lib']
 */
export function applyDiscovery(
  config: Config,
  projectSlug: string,
  componentSlug: string,
  paths: readonly string[],
  holding: ReadonlySet<string> = new Set(),
  previous: readonly Discovered[] = [],
): DiscoveryChange {
  const change: DiscoveryChange = { added: [], updated: [], removed: [], refused: [], kept: [] };
  const project = config.projects.find((p) => p.slug === projectSlug);
  const main = project?.components.find((c) => c.slug === componentSlug);
  const addon = main?.addons.find((a) => a.name === DISCOVERY_ADDON);
  const rule = addon && readRule(addon.configuration).rule;
  if (!project || !main || !rule) return change;
  const key = `${projectSlug}/${componentSlug}`;
  const found = discover(rule, paths).filter((d) => d.filemask !== main.filemask);
  const before = new Map(project.components.filter((c) => c.discoveredBy === key).map((c) => [c.slug, c]));
  // what the store holds from earlier runs (a configuration just loaded names only what the working copy holds now)
  for (const d of previous) if (!before.has(d.slug)) before.set(d.slug, discoveredComponent(main, projectSlug, d, key, rule.copy_addons));
  const configured = project.components.filter((c) => c.discoveredBy !== key);
  const next: ComponentConfig[] = [];
  const taken = new Set(configured.map((c) => c.slug));
  const masks = new Set(configured.filter((c) => c.linkedTo?.component === componentSlug || c === main).map((c) => c.filemask));
  for (const d of found) {
    if (taken.has(d.slug)) {
      change.refused.push({ slug: d.slug, reason: `a configured component has the slug "${d.slug}"` });
      continue;
    }
    if (masks.has(d.filemask)) {
      change.refused.push({ slug: d.slug, reason: `a configured component has the file mask "${d.filemask}"` });
      continue;
    }
    taken.add(d.slug);
    const made = discoveredComponent(main, projectSlug, d, key, rule.copy_addons);
    const old = before.get(d.slug);
    if (!old) change.added.push(d.slug);
    else if (JSON.stringify({ ...old, repoResolved: '' }) !== JSON.stringify({ ...made, repoResolved: '' })) change.updated.push(d.slug);
    next.push(old && !change.updated.includes(d.slug) ? old : made);
  }
  for (const slug of before.keys()) {
    if (next.some((c) => c.slug === slug)) continue;
    if (!rule.remove) next.push(before.get(slug)!);
    else if (holding.has(slug)) {
      // its pending edits stay committable: it goes once they are committed
      change.kept.push(slug);
      next.push(before.get(slug)!);
    } else change.removed.push(slug);
  }
  project.components = [...configured, ...next];
  return change;
}

/**
 * Why an add-on cannot be installed on a component (what Weblate's `can_install` refuses), or null when it can.
 * @example addonMisfit('weblate.gettext.mo', tsComponent) // 'works with the po and po-mono formats only'
 */
function addonMisfit(name: AddonName, c: Pick<ComponentConfig, 'file_format' | 'new_base'>): string | null {
  if (name.startsWith('weblate.gettext.') && c.file_format !== 'po' && c.file_format !== 'po-mono') return 'works with the po and po-mono formats only';
  if (name === 'weblate.gettext.msgmerge' && c.new_base === '') return 'needs new_base (the POT)';
  return null;
}

/**
 * A discovered component's configuration: the defaults of any component, the rule's findings, the link to its main,
 * and with `copyAddons` the main component's add-ons (Weblate's `copy_addons`): all but those of the repository
 * (the discovery add-on) and those the component cannot have (a gettext add-on on another format, msgmerge without
 * a POT).
 */
function discoveredComponent(main: ComponentConfig, projectSlug: string, d: Discovered, key: string, copyAddons: boolean): ComponentConfig {
  const raw = {
    name: d.name,
    slug: d.slug,
    repo: `weblate://${projectSlug}/${main.slug}`,
    filemask: d.filemask,
    file_format: d.file_format,
    template: d.template,
    new_base: d.new_base,
    intermediate: d.intermediate,
    language_regex: d.language_regex,
    source_language: main.source_language,
  };
  // the schema's defaults, filled as for a component of the file
  const wrapper = { projects: [{ name: 'x', slug: 'x', components: [raw] }] };
  configValidator()(wrapper);
  const c = wrapper.projects[0]!.components[0] as unknown as ComponentConfig;
  c.linkedTo = { project: projectSlug, component: main.slug };
  c.discoveredBy = key;
  for (const k of SHARED_KEYS) (c as unknown as Record<string, unknown>)[k] = main[k];
  c.repoResolved = main.repoResolved;
  if (copyAddons) {
    c.addons = main.addons
      .filter((a) => a.name !== DISCOVERY_ADDON && addonMisfit(a.name, c) === null)
      .map((a) => ({ name: a.name, configuration: structuredClone(a.configuration) }));
  }
  return c;
}

/** The configured component with these slugs, or undefined. */
export function findComponentConfig(config: Pick<Config, 'projects'>, projectSlug: string, componentSlug: string): ComponentConfig | undefined {
  return config.projects.find((p) => p.slug === projectSlug)?.components.find((c) => c.slug === componentSlug);
}

/**
 * The engines a project uses: the site's, less those it excludes, with its own added (a project's settings of an
 * engine the site has too replace the site's).
 * @example projectMachinery(config, project) // { 'apertium-apy': {…}, libretranslate: {…} }
 */
export function projectMachinery(
  config: Pick<Config, 'machinery'>,
  project: Pick<ProjectConfig, 'machinery' | 'machinery_exclude'> | undefined,
): MachineryConfig {
  const merged: Record<string, unknown> = { ...(config.machinery ?? {}) };
  for (const id of project?.machinery_exclude ?? []) delete merged[id];
  return { ...merged, ...(project?.machinery ?? {}) } as MachineryConfig;
}

/** The project with this slug, or undefined. */
export function findProject(config: Config, slug: string): ProjectConfig | undefined {
  return config.projects.find((p) => p.slug === slug);
}
