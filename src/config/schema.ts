// The configuration file's JSON Schema, with Weblate's defaults for every project and component key.
import { FORMAT_IDS } from '../formats/format.js';

const str = (def = '') => ({ type: 'string', default: def }) as const;
const bool = (def: boolean) => ({ type: 'boolean', default: def }) as const;
const int = (def: number, minimum?: number) => ({ type: 'integer', default: def, ...(minimum === undefined ? {} : { minimum }) }) as const;

/** A DRF throttle rate: `100/day`, `5000/hour`, `10/m`; empty for no limit. */
const RATE = (def: string) =>
  ({
    type: 'string',
    pattern: '^$|^[0-9]+/(s|sec|second|m|min|minute|h|hour|d|day)$',
    default: def,
    'x-message': 'must be "<number>/<second|minute|hour|day>" or empty (no limit)',
  }) as const;

/** A link shown to visitors and API clients (a website, a license, a repository browser): http(s) only, or empty. */
const LINK = {
  type: 'string',
  default: '',
  pattern: '^$|^[Hh][Tt][Tt][Pp][Ss]?://',
  'x-message': 'must be an http:// or https:// URL (or empty)',
} as const;

const SLUG = {
  type: 'string',
  pattern: '^[A-Za-z0-9_-]+$',
  'x-message': 'must be a slug (letters, digits, "-" and "_")',
} as const;

export const DEFAULT_COMMIT_MESSAGE =
  'Translated using tms ({{ language_name }})\n\n' +
  'Currently translated at {{ stats.translated_percent }}% ({{ stats.translated }} of {{ stats.all }} strings)\n\n' +
  'Translation: {{ project_name }}/{{ component_name }}\nTranslate-URL: {{ url }}';

export const DEFAULT_ADD_MESSAGE = 'Added translation using tms ({{ language_name }})\n\n';
export const DEFAULT_DELETE_MESSAGE = 'Deleted translation using tms ({{ language_name }})\n\n';
export const DEFAULT_MERGE_MESSAGE = "Merge branch '{{ component_remote_branch }}' into tms\n\n";
export const DEFAULT_ADDON_MESSAGE =
  'Update translation files\n\nUpdated by "{{ addon_name }}" add-on in tms.\n\n' +
  'Translation: {{ project_name }}/{{ component_name }}\nTranslate-URL: {{ url }}';
export const DEFAULT_PULL_MESSAGE =
  'Translations update from {{ site_title }}\n\nTranslations update from [{{ site_title }}]({{ site_url }}) for ' +
  '[{{ project_name }}/{{ component_name }}]({{url}}).\n';

/** A secret: written as is, or `{"env": "NAME"}` to read it from the environment when the file is read. */
const SECRET = {
  oneOf: [
    { type: 'string' },
    { type: 'object', additionalProperties: false, required: ['env'], properties: { env: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' } } },
  ],
  'x-message': 'must be a string or {"env": "VARIABLE"}',
} as const;

const ENGINE_URL = { type: 'string', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://', 'x-message': 'must be an http:// or https:// URL' } as const;

/** What every machine translation engine takes: how long a call may last and how many may run at once. */
const ENGINE_LIMITS = {
  timeout_ms: { type: 'integer', minimum: 100, maximum: 600_000, default: 10_000 },
  max_in_flight: { type: 'integer', minimum: 1, maximum: 64, default: 4 },
} as const;

const engine = (properties: Record<string, unknown>, required: string[] = []) =>
  ({ type: 'object', additionalProperties: false, required, properties: { ...ENGINE_LIMITS, ...properties } }) as const;

/** Machine translation engines by Weblate's engine ids, with their settings (tms's memory and components need none). */
export const machinerySchema = {
  type: 'object',
  additionalProperties: false,
  default: {},
  properties: {
    'apertium-apy': engine({ url: ENGINE_URL }, ['url']),
    libretranslate: engine({ url: ENGINE_URL, key: SECRET }, ['url']),
    deepl: engine(
      {
        url: { ...ENGINE_URL, default: 'https://api.deepl.com/v2/' },
        key: SECRET,
        formality: { type: 'string', enum: ['default', 'more', 'less', 'prefer_more', 'prefer_less'], default: 'default' },
      },
      ['key'],
    ),
    openai: engine(
      {
        base_url: { ...ENGINE_URL, default: 'https://api.openai.com/v1' },
        key: SECRET,
        model: { type: 'string', minLength: 1, default: 'gpt-4o-mini' },
        persona: str(),
        style: str(),
      },
      [],
    ),
    weblate: engine({}),
    'weblate-translation-memory': engine({}),
  },
} as const;

export const componentSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'slug', 'filemask', 'file_format'],
  properties: {
    name: { type: 'string', minLength: 1 },
    slug: SLUG,
    vcs: { type: 'string', enum: ['git', 'local'], default: 'git' },
    repo: str(),
    branch: str(),
    push: str(),
    push_branch: str(),
    filemask: { type: 'string', pattern: '\\*', 'x-message': 'must contain "*"' },
    screenshot_filemask: str(),
    template: str(),
    edit_template: bool(true),
    intermediate: str(),
    new_base: str(),
    file_format: {
      type: 'string',
      enum: [...FORMAT_IDS],
    },
    source_language: str('en'),
    license: str(),
    license_url: LINK,
    agreement: str(),
    new_lang: { type: 'string', enum: ['contact', 'url', 'add', 'none'], default: 'add' },
    language_code_style: str(),
    check_flags: str(),
    priority: int(100),
    enforced_checks: { type: 'array', items: { type: 'string' }, default: [] },
    // Weblate's add-ons of the component (`/api/addons/`): name and configuration
    addons: {
      type: 'array',
      default: [],
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        properties: {
          name: {
            type: 'string',
            enum: ['weblate.gettext.msgmerge', 'weblate.gettext.mo', 'weblate.autotranslate.autotranslate', 'weblate.discovery.discovery'],
          },
          configuration: { type: 'object', default: {} },
        },
      },
    },
    restricted: bool(false),
    repoweb: LINK,
    report_source_bugs: str(),
    merge_style: { type: 'string', enum: ['merge', 'rebase', 'merge_noff'], default: 'rebase' },
    commit_message: str(DEFAULT_COMMIT_MESSAGE),
    add_message: str(DEFAULT_ADD_MESSAGE),
    delete_message: str(DEFAULT_DELETE_MESSAGE),
    merge_message: str(DEFAULT_MERGE_MESSAGE),
    addon_message: str(DEFAULT_ADDON_MESSAGE),
    pull_message: str(DEFAULT_PULL_MESSAGE),
    allow_translation_propagation: bool(true),
    manage_units: bool(false),
    enable_suggestions: bool(true),
    suggestion_voting: bool(false),
    suggestion_autoaccept: int(0, 0),
    push_on_commit: bool(true),
    commit_pending_age: int(24, 0),
    auto_lock_error: bool(true),
    language_regex: str('^[^.]+$'),
    key_filter: str(),
    variant_regex: str(),
    is_glossary: bool(false),
    glossary_color: str('silver'),
    secondary_language: { type: ['string', 'null'], default: null },
    category: { type: 'null', default: null },
    linked_component: { type: 'null', default: null },
    // tms extensions
    username: str(),
    password: str(),
    depth: {
      ...int(0, 0),
      description:
        'Shallow clone depth of the working copy: 0 (the default) clones the whole history, N the last N commits. ' +
        "The first clone is made by git; a full clone sends the server's packed history as it is, while a shallow one " +
        'makes the server build a new pack (on a 3,000-commit upstream: 0.3-0.9 s for the whole history, 3.5-4 s for ' +
        'depth 1). A shallow working copy works for every operation: fetches bring the history an update needs, down to ' +
        'the merge base; a merge whose base upstream dropped uses the shallow boundary as base. Set it for upstreams ' +
        'whose history is much larger than their files.',
    },
  },
} as const;

export const projectSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'slug'],
  properties: {
    name: { type: 'string', minLength: 1 },
    slug: SLUG,
    web: LINK,
    instructions: str(),
    translation_review: bool(false),
    source_review: bool(false),
    set_language_team: bool(true),
    enable_hooks: bool(true),
    language_aliases: str(),
    check_flags: str(),
    secondary_language: { type: ['string', 'null'], default: null },
    enforced_2fa: bool(false),
    access_control: { type: 'integer', enum: [0, 1, 100, 200], default: 0 },
    // tms extension: a per-project webhook secret
    hook_secret: str(),
    // engines of this project's own, beside (or instead of) the site's; site engines the project leaves out
    machinery: machinerySchema,
    machinery_exclude: {
      type: 'array',
      default: [],
      items: { type: 'string', enum: ['apertium-apy', 'libretranslate', 'deepl', 'openai', 'weblate', 'weblate-translation-memory'] },
    },
    components: { type: 'array', items: componentSchema, default: [] },
  },
} as const;

export const configSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    site_url: LINK,
    site_title: str('tms'),
    database: str('tms.sqlite'),
    repos_dir: str('repos'),
    // tms extension: how long a repository operation waits for another one on the same component (then 423)
    lock_timeout_ms: { type: 'integer', minimum: 1, default: 60_000 },
    // tms extension: how long a git remote may stay silent (nothing sent, nothing received) before a fetch, push or
    // clone gives up; git itself waits as long as the connection lives
    remote_timeout_s: { type: 'number', exclusiveMinimum: 0, maximum: 86_400, default: 600 },
    // tms extension: the largest multipart upload (a translation file) the API reads; larger ones are a 413
    upload_max_bytes: { type: 'integer', minimum: 1024, default: 50 * 1024 * 1024 },
    // tms extensions: the largest translation file a sync reads, and the longest string an edit may store
    max_file_bytes: { type: 'integer', minimum: 1024, default: 50 * 1024 * 1024 },
    max_string_chars: { type: 'integer', minimum: 1, default: 100_000 },
    // tms extension: threads a sync of many components uses (1: parse on the syncing thread; 0: the cores available)
    sync_threads: { type: 'integer', minimum: 0, maximum: 256, default: 0 },
    // failed API authentications one client address may make per minute before it is answered 429
    auth_failures_per_minute: { type: 'integer', minimum: 1, default: 30 },
    // tms extension: what `tms serve` logs (one JSON line per request at "info")
    log_level: { type: 'string', enum: ['debug', 'info', 'warn', 'error', 'silent'], default: 'info' },
    // Weblate's API throttling (DRF rates "<number>/<second|minute|hour|day>"; "" turns a limit off)
    rate_limit: {
      type: 'object',
      additionalProperties: false,
      properties: { anonymous: RATE('100/day'), user: RATE('') },
      default: { anonymous: '100/day', user: '' },
    },
    // tms extension: how often `tms serve` looks for pending edits older than a component's commit_pending_age
    commit_pending_check_seconds: { type: 'number', exclusiveMinimum: 0, default: 600 },
    committer: {
      type: 'object',
      additionalProperties: false,
      properties: { name: str('tms'), email: str('tms@localhost') },
      default: { name: 'tms', email: 'tms@localhost' },
    },
    hooks: {
      type: 'object',
      additionalProperties: false,
      properties: { enabled: bool(true), secret: str() },
      default: { enabled: true, secret: '' },
    },
    machinery: machinerySchema,
    projects: { type: 'array', items: projectSchema, default: [] },
  },
} as const;
