// The route table: every served path with its allowed methods, GET handler and response shape (Allow, 405s, OPTIONS and OpenAPI come from here).
import { type Answer, json } from './answer.js';
import type { RequestContext } from './context.js';
import { methodNotAllowed, notFound } from './errors.js';
import * as accounts from './handlers/accounts.js';
import * as addons from './handlers/addons.js';
import * as catalog from './handlers/catalog.js';
import * as changes from './handlers/changes.js';
import * as files from './handlers/files.js';
import * as labels from './handlers/labels.js';
import * as machinery from './handlers/machinery.js';
import * as memory from './handlers/memory.js';
import * as repository from './handlers/repository.js';
import * as screenshots from './handlers/screenshots.js';
import * as statistics from './handlers/statistics.js';
import * as unitWrites from './handlers/unit-writes.js';
import * as units from './handlers/units.js';
import { toJson } from './json.js';
import { openApiDocument } from './openapi.js';
import type { PageKind } from './pagination.js';
import type { AnySerializer, Method, QueryParameter, ResponseShape, Route, WriteMethod, WriteOperation } from './route.js';
import { type MemoContext, Serializer, t } from './serializer.js';
import { groupSerializer, roleSerializer, userSerializer } from './serializers/accounts.js';
import { addonSerializer } from './serializers/addon.js';
import { categorySerializer } from './serializers/category.js';
import { changeSerializer } from './serializers/change.js';
import { componentSerializer, projectComponentSerializer } from './serializers/component.js';
import { labelSerializer } from './serializers/label.js';
import { languageSerializer } from './serializers/language.js';
import { componentListSerializer, memorySerializer } from './serializers/memory.js';
import { projectSerializer } from './serializers/project.js';
import { lockSerializer, projectRepositorySerializer, repositorySerializer } from './serializers/repository.js';
import { screenshotSerializer } from './serializers/screenshot.js';
import { projectLanguageStatisticsSerializer, statisticsSerializer, translationStatisticsSerializer } from './serializers/statistics.js';
import { componentTranslationSerializer, translationSerializer } from './serializers/translation.js';
import { unitSerializer } from './serializers/unit.js';

// The shapes of the two answers built without a serializer, for the OpenAPI document.
const searchResultSerializer = new Serializer<{ url: string; name: string; category: string }, MemoContext>('SearchResult', [
  { name: 'url', type: t.string, get: (r) => r.url },
  { name: 'name', type: t.string, get: (r) => r.name },
  { name: 'category', type: t.string, get: (r) => r.category },
]);
const metricsSerializer = new Serializer<Record<string, unknown>, MemoContext>('Metrics', [
  ...[
    'units',
    'units_translated',
    'users',
    'changes',
    'projects',
    'components',
    'translations',
    'languages',
    'checks',
    'configuration_errors',
    'suggestions',
  ].map((name) => ({ name, type: t.integer, get: (r: Record<string, unknown>) => r[name] })),
  { name: 'celery_queues', type: t.object, get: (r) => r.celery_queues },
  { name: 'name', type: t.string, get: (r) => r.name },
]);

const machineryAnswerSerializer = new Serializer<Record<string, unknown>, MemoContext>('MachineryAnswer', [
  { name: 'engine', type: t.string, get: (r) => r.engine },
  { name: 'name', type: t.string, get: (r) => r.name },
  { name: 'status', type: t.string, get: (r) => r.status },
  { name: 'suggestions', type: t.array(t.object), get: (r) => r.suggestions },
  { name: 'error', type: t.nullable(t.string), get: (r) => r.error },
]);
const taskSerializer = new Serializer<Record<string, unknown>, MemoContext>('Task', [
  { name: 'completed', type: t.boolean, get: (r) => r.completed },
  { name: 'progress', type: t.integer, get: (r) => r.progress },
  { name: 'result', type: t.nullable(t.object), get: (r) => r.result },
  { name: 'log', type: t.string, get: (r) => r.log },
]);
const taskAnswerSerializer = new Serializer<Record<string, unknown>, MemoContext>('AutotranslateAnswer', [
  { name: 'details', type: t.string, get: (r) => r.details },
  { name: 'task_url', type: t.url, get: (r) => r.task_url },
]);

const READ: readonly Method[] = ['GET', 'HEAD', 'OPTIONS'];
const LIST_CREATE: readonly Method[] = ['GET', 'POST', 'HEAD', 'OPTIONS'];
const DETAIL: readonly Method[] = ['GET', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

const Q: QueryParameter = {
  name: 'q',
  description:
    'Search query: words, "phrases", field:value (source, target, context, key, note, location, explanation, state, is, has, priority, id, position, language, component, project), operators (= < <= > >=), [a to b] ranges, r"regex", AND, OR, NOT, parentheses.',
  schema: { type: 'string' },
};

const CHANGE_FILTERS: readonly QueryParameter[] = [
  { name: 'user', description: 'Username of the acting user (exact).', schema: { type: 'string' } },
  { name: 'action', description: 'Action code; repeat for any of several.', schema: { type: 'integer' }, repeatable: true },
  { name: 'timestamp_after', description: 'Changes at or after this ISO 8601 time.', schema: { type: 'string', format: 'date-time' } },
  { name: 'timestamp_before', description: 'Changes at or before this ISO 8601 time.', schema: { type: 'string', format: 'date-time' } },
];

const page = (serializer: AnySerializer, kind: PageKind = 'standard'): ResponseShape => ({ kind: 'page', serializer, page: kind });
const record = (serializer: AnySerializer): ResponseShape => ({ kind: 'record', serializer });

const P = '/api/projects/{project}/';
const C = '/api/components/{project}/{component}/';
const T = '/api/translations/{project}/{component}/{language}/';

const STRINGS = { type: 'array', items: { type: 'string' } };
const RESULT = {
  type: 'object',
  properties: { result: { type: 'boolean' }, detail: { type: 'string' } },
  required: ['result'],
  additionalProperties: false,
};
const OPERATION_BODY = {
  type: 'object',
  properties: { operation: { type: 'string', enum: Object.keys(repository.OPERATIONS) } },
  required: ['operation'],
};
const repositoryPost = (handler: WriteOperation['handler'], what: string): Partial<Record<WriteMethod, WriteOperation>> => ({
  POST: {
    handler,
    summary: `Runs a repository operation on ${what}: commit, push, pull, reset, cleanup, file-sync or file-scan (423 when the repository lock is busy).`,
    request: OPERATION_BODY,
    status: 200,
    answer: RESULT,
  },
});
const UNIT_WRITE = {
  type: 'object',
  properties: {
    target: { oneOf: [STRINGS, { type: 'string' }] },
    state: { type: 'integer', enum: [0, 10, 20, 30] },
    explanation: { type: 'string' },
    extra_flags: { type: 'string' },
    labels: { type: 'array', items: { type: 'integer' } },
  },
};
const UNIT_WRITE_ANSWER = { ...UNIT_WRITE, required: ['target', 'state', 'explanation', 'extra_flags', 'labels'] };
const UPLOAD_BODY = {
  type: 'object',
  properties: {
    file: { type: 'string', contentMediaType: 'application/octet-stream' },
    method: { type: 'string', enum: ['translate', 'approve', 'suggest', 'fuzzy', 'replace', 'source', 'add'], default: 'translate' },
    conflicts: { type: 'string', enum: ['', 'ignore', 'replace-translated', 'replace-approved'], default: '' },
    fuzzy: { type: 'string', enum: ['', 'process', 'approve'], default: '' },
    author_name: { type: 'string' },
    author_email: { type: 'string' },
    overwrite: { type: 'string', description: 'Sent by older clients; ignored.' },
  },
  required: ['file'],
};
const UPLOAD_ANSWER = {
  type: 'object',
  properties: {
    not_found: { type: 'integer', minimum: 0 },
    skipped: { type: 'integer', minimum: 0 },
    accepted: { type: 'integer', minimum: 0 },
    total: { type: 'integer', minimum: 0 },
    result: { type: 'boolean' },
    count: { type: 'integer', minimum: 0 },
  },
  required: ['not_found', 'skipped', 'accepted', 'total', 'result', 'count'],
  additionalProperties: false,
};
const IMAGE = { type: 'string', contentMediaType: 'application/octet-stream', description: 'A PNG, JPEG or WebP image (judged by its bytes), at most 10 MiB.' };
const SCREENSHOT_NAME = { type: 'string', maxLength: 200 };
const screenshotCreate = (handler: WriteOperation['handler'], properties: Record<string, unknown>, required: string[], summary: string): WriteOperation => ({
  handler,
  summary,
  body: 'form',
  request: { type: 'object', properties: { name: SCREENSHOT_NAME, image: IMAGE, ...properties }, required: ['name', 'image', ...required] },
  status: 201,
  answer: 'Screenshot',
});

const upload: WriteOperation = {
  handler: files.uploadFile,
  summary: 'Uploads a file into the translation per method and conflicts.',
  body: 'form',
  request: UPLOAD_BODY,
  status: 200,
  answer: UPLOAD_ANSWER,
};

/** Every path tms serves under /api/. */
export const ROUTES: readonly Route[] = [
  { path: '/api/', name: 'Api Root', description: 'Links to every list.', allow: READ, get: apiRoot, response: { kind: 'root' }, tags: 'root' },
  { path: '/api/schema/', name: 'Schema', description: 'This OpenAPI 3.1 description.', allow: READ, get: schema, response: { kind: 'schema' }, tags: 'root' },

  {
    path: '/api/languages/',
    name: 'Language List',
    description: 'Languages with at least one visible translation (all of them for language managers).',
    allow: LIST_CREATE,
    get: catalog.listLanguages,
    response: page(languageSerializer),
    tags: 'languages',
  },
  {
    path: '/api/languages/{language}/',
    name: 'Language Instance',
    description: 'One language by its code.',
    allow: DETAIL,
    get: catalog.getLanguage,
    response: record(languageSerializer),
    tags: 'languages',
  },
  {
    path: '/api/languages/{language}/statistics/',
    name: 'Statistics',
    description: 'Statistics of a language over the visible translations.',
    allow: READ,
    get: statistics.languageStatistics,
    response: record(statisticsSerializer),
    tags: 'languages',
  },

  {
    path: '/api/projects/',
    name: 'Project List',
    description: 'Visible projects.',
    allow: LIST_CREATE,
    get: catalog.listProjects,
    response: page(projectSerializer),
    tags: 'projects',
  },
  {
    path: P,
    name: 'Project Instance',
    description: 'One project by its slug.',
    allow: DETAIL,
    get: catalog.getProject,
    response: record(projectSerializer),
    tags: 'projects',
  },
  {
    path: `${P}components/`,
    name: 'Components',
    description: 'Components of the project (without the nested project).',
    allow: LIST_CREATE,
    get: catalog.listProjectComponents,
    response: page(projectComponentSerializer),
    tags: 'projects',
  },
  {
    path: `${P}repository/`,
    name: 'Repository',
    description: 'Repository status of the project.',
    allow: LIST_CREATE,
    get: repository.projectRepository,
    response: record(projectRepositorySerializer),
    live: true,
    write: repositoryPost(repository.projectOperation, 'every component of the project'),
    tags: 'projects',
  },
  {
    path: `${P}file/`,
    name: 'File',
    description: 'A ZIP of every translation file of the project, pending edits applied.',
    allow: READ,
    get: files.projectFile,
    response: { kind: 'file' },
    ownFormat: true,
    tags: 'projects',
  },
  {
    path: `${P}statistics/`,
    name: 'Statistics',
    description: 'Statistics of the project.',
    allow: READ,
    get: statistics.projectStatistics,
    response: record(statisticsSerializer),
    tags: 'projects',
  },
  {
    path: `${P}categories/`,
    name: 'Categories',
    description: 'Categories of the project (tms has none).',
    allow: READ,
    get: catalog.emptyProjectList,
    response: page(categorySerializer),
    tags: 'projects',
  },
  {
    path: `${P}changes/`,
    name: 'Changes',
    description: 'Changes in the project, newest first.',
    allow: READ,
    get: changes.listProjectChanges,
    response: page(changeSerializer),
    query: CHANGE_FILTERS,
    tags: 'projects',
  },
  {
    path: `${P}languages/`,
    name: 'Languages',
    description: 'Statistics per language used in the project (a plain array).',
    allow: READ,
    get: statistics.projectLanguages,
    response: { kind: 'array', serializer: projectLanguageStatisticsSerializer },
    tags: 'projects',
  },
  {
    path: `${P}labels/`,
    name: 'Labels',
    description: 'Labels of the project, by name.',
    allow: LIST_CREATE,
    get: labels.listProjectLabels,
    response: page(labelSerializer),
    tags: 'projects',
    write: {
      POST: {
        handler: labels.createProjectLabel,
        summary: 'Creates a label of the project (project.edit); color is one of Weblate’s colour names (navy by default).',
        request: {
          type: 'object',
          properties: { name: { type: 'string' }, description: { type: 'string' }, color: { type: 'string' } },
          required: ['name'],
        },
        status: 201,
        answer: 'Label',
      },
    },
  },

  {
    path: '/api/components/',
    name: 'Component List',
    description: 'Visible components.',
    allow: READ,
    get: catalog.listComponents,
    response: page(componentSerializer),
    tags: 'components',
  },
  {
    path: C,
    name: 'Component Instance',
    description: 'One component.',
    allow: DETAIL,
    get: catalog.getComponent,
    response: record(componentSerializer),
    tags: 'components',
  },
  {
    path: `${C}repository/`,
    name: 'Repository',
    description: 'Repository status of the component.',
    allow: LIST_CREATE,
    get: repository.componentRepository,
    response: record(repositorySerializer),
    live: true,
    write: repositoryPost(repository.componentOperation, 'the component'),
    tags: 'components',
  },
  {
    path: `${C}translations/`,
    name: 'Translations',
    description: 'Translations of the component (without the nested component).',
    allow: LIST_CREATE,
    get: catalog.listComponentTranslations,
    response: page(componentTranslationSerializer),
    tags: 'components',
    write: {
      POST: {
        handler: files.addComponentTranslation,
        summary: 'Adds a language: a new file from new_base, committed.',
        status: 201,
        request: { type: 'object', properties: { language_code: { type: 'string' } }, required: ['language_code'] },
        answer: { type: 'object', properties: { data: { $ref: '#/components/schemas/ComponentTranslation' } }, required: ['data'] },
      },
    },
  },
  {
    path: `${C}file/`,
    name: 'File',
    description: "A ZIP of the component's translation files, pending edits applied.",
    allow: READ,
    get: files.componentFile,
    response: { kind: 'file' },
    ownFormat: true,
    tags: 'components',
  },
  {
    path: `${C}statistics/`,
    name: 'Statistics',
    description: 'Statistics of each translation of the component, source included.',
    allow: READ,
    get: statistics.componentStatistics,
    response: page(translationStatisticsSerializer, 'large'),
    tags: 'components',
  },
  {
    path: `${C}lock/`,
    name: 'Lock',
    description: 'Whether the component is locked.',
    allow: LIST_CREATE,
    get: repository.componentLock,
    response: record(lockSerializer),
    tags: 'components',
    write: {
      POST: {
        handler: repository.setComponentLock,
        summary: 'Locks or unlocks the component.',
        request: { type: 'object', properties: { lock: { type: 'boolean' } }, required: ['lock'] },
        status: 200,
        answer: 'Lock',
      },
    },
  },
  {
    path: `${C}links/`,
    name: 'Links',
    description: 'Projects the component is shared with (tms has none).',
    allow: LIST_CREATE,
    get: catalog.emptyComponentList,
    response: page(projectSerializer),
    tags: 'components',
  },
  {
    path: `${C}changes/`,
    name: 'Changes',
    description: 'Changes in the component, newest first.',
    allow: READ,
    get: changes.listComponentChanges,
    response: page(changeSerializer),
    query: CHANGE_FILTERS,
    tags: 'components',
  },

  {
    path: `${C}screenshots/`,
    name: 'Screenshots',
    description: "The component's screenshots.",
    allow: LIST_CREATE,
    get: screenshots.listComponentScreenshots,
    response: page(screenshotSerializer),
    tags: 'components',
    write: {
      POST: screenshotCreate(
        screenshots.createComponentScreenshot,
        { language_code: { type: 'string', description: 'The translation it belongs to; the source language by default.' } },
        [],
        'Adds a screenshot to the component (screenshot.add).',
      ),
    },
  },

  {
    path: '/api/translations/',
    name: 'Translation List',
    description: 'Visible translations.',
    allow: READ,
    get: catalog.listTranslations,
    response: page(translationSerializer),
    tags: 'translations',
  },
  {
    path: T,
    name: 'Translation Instance',
    description: 'One translation; the language is the Language code.',
    allow: ['GET', 'DELETE', 'HEAD', 'OPTIONS'],
    get: catalog.getTranslation,
    response: record(translationSerializer),
    tags: 'translations',
  },
  {
    path: `${T}repository/`,
    name: 'Repository',
    description: "Repository status of the translation's component.",
    allow: LIST_CREATE,
    get: repository.translationRepository,
    response: record(repositorySerializer),
    live: true,
    write: repositoryPost(repository.translationOperation, "the translation's component (commit: this translation only)"),
    tags: 'translations',
  },
  {
    path: `${T}file/`,
    name: 'File',
    description: 'The translation file as in the repository.',
    allow: ['GET', 'POST', 'PUT', 'HEAD', 'OPTIONS'],
    get: files.translationFile,
    response: { kind: 'file' },
    ownFormat: true,
    write: { POST: upload, PUT: upload },
    tags: 'translations',
  },
  {
    path: `${T}statistics/`,
    name: 'Statistics',
    description: 'Statistics of the translation.',
    allow: READ,
    get: statistics.translationStatistics,
    response: record(translationStatisticsSerializer),
    tags: 'translations',
  },
  {
    path: `${T}changes/`,
    name: 'Changes',
    description: 'Changes in the translation, newest first.',
    allow: READ,
    get: changes.listTranslationChanges,
    response: page(changeSerializer),
    query: CHANGE_FILTERS,
    tags: 'translations',
  },
  {
    path: `${T}units/`,
    name: 'Units',
    description: 'Units of the translation in position order.',
    allow: LIST_CREATE,
    get: units.listTranslationUnits,
    response: page(unitSerializer),
    query: [Q],
    tags: 'translations',
    write: {
      POST: {
        handler: unitWrites.addTranslationUnit,
        summary: 'Adds a string: key and value (monolingual), or context, source and target (bilingual).',
        status: 200,
        answer: 'Unit',
        request: {
          type: 'object',
          properties: {
            key: { type: 'string' },
            value: STRINGS,
            context: { type: 'string' },
            source: STRINGS,
            target: STRINGS,
            state: { type: 'integer', enum: [0, 10, 20, 30] },
          },
        },
      },
    },
  },

  {
    path: `${T}autotranslate/`,
    name: 'Autotranslate',
    description: 'Automatic translation of the translation, as a background task.',
    allow: ['POST', 'OPTIONS'],
    get: () => {
      throw methodNotAllowed('GET', 'POST, OPTIONS');
    },
    response: record(taskAnswerSerializer),
    tags: 'translations',
    write: {
      POST: {
        handler: machinery.autoTranslateTranslation,
        summary:
          'Fills strings from other components (auto_source=others) or engines (auto_source=mt) as suggestions, translations or strings needing editing; translated strings are replaced only by mode=translate with filter_type=all.',
        status: 200,
        answer: { type: 'object', properties: { details: { type: 'string' }, task_url: { type: 'string', format: 'uri' } }, required: ['details'] },
        request: {
          type: 'object',
          properties: {
            mode: { type: 'string', enum: ['suggest', 'translate', 'fuzzy'], default: 'suggest' },
            filter_type: { type: 'string', enum: ['all', 'nottranslated', 'todo', 'fuzzy'], default: 'todo' },
            q: { type: 'string' },
            auto_source: { type: 'string', enum: ['others', 'mt'], default: 'others' },
            component: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
            engines: STRINGS,
            threshold: { type: 'integer', minimum: 1, maximum: 100, default: 80 },
          },
        },
      },
    },
  },

  {
    path: '/api/units/',
    name: 'Unit List',
    description: 'Visible units by id.',
    allow: READ,
    get: units.listUnits,
    response: page(unitSerializer, 'large'),
    query: [Q],
    tags: 'units',
  },
  {
    path: '/api/units/{id}/',
    name: 'Unit Instance',
    description: 'One unit.',
    allow: DETAIL,
    get: units.getUnit,
    response: record(unitSerializer),
    tags: 'units',
    write: {
      PUT: {
        handler: (ctx) => unitWrites.updateUnit(ctx, true),
        summary: 'Translates the unit (target and labels required).',
        request: UNIT_WRITE,
        status: 200,
        answer: UNIT_WRITE_ANSWER,
      },
      PATCH: {
        handler: (ctx) => unitWrites.updateUnit(ctx, false),
        summary: 'Translates the unit: target and state together.',
        request: UNIT_WRITE,
        status: 200,
        answer: UNIT_WRITE_ANSWER,
      },
      DELETE: { handler: unitWrites.removeUnit, summary: 'Deletes the string from every translation of the component.', status: 204 },
    },
  },

  {
    path: '/api/units/{id}/machinery/{engine}/',
    name: 'Machinery',
    description: "One configured engine's suggestions for the unit's source (tms: the editor's machine translation panel).",
    allow: READ,
    get: machinery.unitMachinery,
    response: record(machineryAnswerSerializer),
    live: true,
    tags: 'units',
  },
  {
    path: '/api/tasks/{uuid}/',
    name: 'Task',
    description: 'A background task of this server (automatic translation).',
    allow: READ,
    get: machinery.getTask,
    response: record(taskSerializer),
    live: true,
    tags: 'tasks',
  },

  {
    path: '/api/changes/',
    name: 'Change List',
    description: 'Visible changes, newest first.',
    allow: READ,
    get: changes.listChanges,
    response: page(changeSerializer),
    query: CHANGE_FILTERS,
    tags: 'changes',
  },
  {
    path: '/api/changes/{id}/',
    name: 'Change Instance',
    description: 'One change.',
    allow: READ,
    get: changes.getChange,
    response: record(changeSerializer),
    tags: 'changes',
  },

  {
    path: '/api/screenshots/',
    name: 'Screenshot List',
    description: 'Screenshots of the visible components, by id.',
    allow: LIST_CREATE,
    get: screenshots.listScreenshots,
    response: page(screenshotSerializer),
    tags: 'screenshots',
    write: {
      POST: screenshotCreate(
        screenshots.createScreenshot,
        { project_slug: { type: 'string' }, component_slug: { type: 'string' }, language_code: { type: 'string' } },
        ['project_slug', 'component_slug', 'language_code'],
        'Adds a screenshot to a translation (screenshot.add).',
      ),
    },
  },
  {
    path: '/api/screenshots/{id}/',
    name: 'Screenshot Instance',
    description: 'One screenshot.',
    allow: DETAIL,
    get: screenshots.getScreenshot,
    response: record(screenshotSerializer),
    tags: 'screenshots',
    write: {
      PUT: {
        handler: (ctx) => screenshots.updateScreenshot(ctx, false),
        summary: 'Renames the screenshot (screenshot.edit).',
        request: { type: 'object', properties: { name: SCREENSHOT_NAME }, required: ['name'] },
        status: 200,
        answer: 'Screenshot',
      },
      PATCH: {
        handler: (ctx) => screenshots.updateScreenshot(ctx, true),
        summary: 'Renames the screenshot (screenshot.edit).',
        request: { type: 'object', properties: { name: SCREENSHOT_NAME } },
        status: 200,
        answer: 'Screenshot',
      },
      DELETE: { handler: screenshots.deleteScreenshot, summary: 'Deletes the screenshot (screenshot.delete).', status: 204 },
    },
  },
  {
    path: '/api/screenshots/{id}/file/',
    name: 'File',
    description: 'The screenshot image, in its own media type.',
    allow: ['GET', 'POST', 'HEAD', 'OPTIONS'],
    get: screenshots.screenshotFile,
    response: { kind: 'file' },
    tags: 'screenshots',
    write: {
      POST: {
        handler: screenshots.replaceScreenshotFile,
        summary: 'Replaces the image (screenshot.edit).',
        body: 'form',
        request: { type: 'object', properties: { image: IMAGE }, required: ['image'] },
        status: 200,
        answer: RESULT,
      },
    },
  },
  {
    path: '/api/screenshots/{id}/units/',
    name: 'Units',
    description: "Links a string of the screenshot's translation to it.",
    allow: ['POST', 'OPTIONS'],
    get: () => {
      throw methodNotAllowed('GET', 'POST, OPTIONS');
    },
    response: record(screenshotSerializer),
    tags: 'screenshots',
    write: {
      POST: {
        handler: screenshots.linkScreenshotUnit,
        summary: 'Links the unit unit_id (screenshot.edit).',
        request: { type: 'object', properties: { unit_id: { type: 'integer' } }, required: ['unit_id'] },
        status: 200,
        answer: 'Screenshot',
      },
    },
  },
  {
    path: '/api/screenshots/{id}/units/{unit_id}/',
    name: 'Delete Units',
    description: 'Unlinks a string from the screenshot.',
    allow: ['DELETE', 'OPTIONS'],
    get: () => {
      throw notFound();
    },
    response: record(screenshotSerializer),
    tags: 'screenshots',
    write: { DELETE: { handler: screenshots.unlinkScreenshotUnit, summary: 'Unlinks the unit (screenshot.edit).', status: 204 } },
  },

  {
    path: '/api/users/',
    name: 'User List',
    description: 'Users (basic records).',
    allow: LIST_CREATE,
    get: accounts.listUsers,
    response: page(userSerializer),
    tags: 'users',
    query: [
      { name: 'username', description: 'Username prefix.', schema: { type: 'string' } },
      { name: 'id', description: 'User id.', schema: { type: 'integer' } },
    ],
  },
  {
    path: '/api/users/{username}/',
    name: 'User Instance',
    description: 'One user by username.',
    allow: DETAIL,
    get: accounts.getUser,
    response: record(userSerializer),
    tags: 'users',
  },
  {
    path: '/api/groups/',
    name: 'Group List',
    description: "Teams: all for team managers, else the caller's own.",
    allow: LIST_CREATE,
    get: accounts.listGroups,
    response: page(groupSerializer),
    tags: 'groups',
  },
  {
    path: '/api/groups/{id}/',
    name: 'Group Instance',
    description: 'One team.',
    allow: DETAIL,
    get: accounts.getGroup,
    response: record(groupSerializer),
    tags: 'groups',
  },
  {
    path: '/api/roles/',
    name: 'Role List',
    description: "Roles: all for role managers, else those of the caller's teams.",
    allow: LIST_CREATE,
    get: accounts.listRoles,
    response: page(roleSerializer),
    tags: 'roles',
  },
  {
    path: '/api/roles/{id}/',
    name: 'Role Instance',
    description: 'One role.',
    allow: DETAIL,
    get: accounts.getRole,
    response: record(roleSerializer),
    tags: 'roles',
  },
  {
    path: '/api/addons/',
    name: 'Addon List',
    description: 'Add-ons of visible projects and components.',
    allow: READ,
    get: addons.listAddons,
    response: page(addonSerializer),
    tags: 'addons',
  },
  {
    path: '/api/addons/{id}/',
    name: 'Addon Instance',
    description: 'One add-on.',
    allow: DETAIL,
    get: addons.getAddon,
    response: record(addonSerializer),
    tags: 'addons',
  },
  {
    path: '/api/memory/',
    name: 'Memory List',
    description: 'Translation memory entries by id (superusers only).',
    allow: LIST_CREATE,
    get: memory.listMemory,
    response: page(memorySerializer),
    tags: 'memory',
  },
  {
    path: '/api/memory/{id}/',
    name: 'Memory Instance',
    description: 'One translation memory entry.',
    allow: DETAIL,
    get: memory.getMemory,
    response: record(memorySerializer),
    tags: 'memory',
    write: {
      DELETE: { handler: memory.deleteMemory, summary: 'Deletes the entry (memory.delete on its project, its owner, or memory.manage).', status: 204 },
    },
  },
  {
    path: '/api/component-lists/',
    name: 'Component List List',
    description: 'Component lists with a visible component (or none).',
    allow: LIST_CREATE,
    get: memory.listComponentLists,
    response: page(componentListSerializer),
    tags: 'component-lists',
    write: {
      POST: {
        handler: memory.createComponentList,
        summary: 'Creates a component list (componentlist.edit).',
        request: {
          type: 'object',
          properties: { name: { type: 'string' }, slug: { type: 'string' }, show_dashboard: { type: 'boolean' } },
          required: ['name', 'slug'],
        },
        status: 201,
        answer: 'ComponentList',
      },
    },
  },
  {
    path: '/api/component-lists/{slug}/',
    name: 'Component List Instance',
    description: 'One component list by slug.',
    allow: DETAIL,
    get: memory.getComponentList,
    response: record(componentListSerializer),
    tags: 'component-lists',
    write: { DELETE: { handler: memory.deleteComponentList, summary: 'Deletes the component list (componentlist.edit).', status: 204 } },
  },
  {
    path: '/api/component-lists/{slug}/components/',
    name: 'Components',
    description: 'The visible components of the list.',
    allow: LIST_CREATE,
    get: memory.listComponentListComponents,
    response: page(componentSerializer),
    tags: 'component-lists',
    write: {
      POST: {
        handler: memory.addComponentListComponent,
        summary: 'Adds a component by component_id (componentlist.edit).',
        request: { type: 'object', properties: { component_id: { type: 'integer' } }, required: ['component_id'] },
        status: 200,
        answer: 'ComponentList',
      },
    },
  },
  {
    path: '/api/component-lists/{slug}/components/{component}/',
    name: 'Delete Components',
    description: 'Removes a component from the list.',
    allow: ['DELETE', 'OPTIONS'],
    get: () => {
      throw notFound();
    },
    response: record(componentListSerializer),
    tags: 'component-lists',
    write: { DELETE: { handler: memory.removeComponentListComponent, summary: 'Removes the component from the list (componentlist.edit).', status: 204 } },
  },
  {
    path: '/api/search/',
    name: 'Search',
    description: 'Site-wide search: a plain list of {url, name, category}, at most five projects, components, users and languages.',
    allow: READ,
    get: memory.siteSearch,
    response: { kind: 'array', serializer: searchResultSerializer },
    query: [{ name: 'q', description: 'The text to look for.', schema: { type: 'string' } }],
    tags: 'search',
  },
  {
    path: '/api/metrics/',
    name: 'Metrics',
    description: 'Server metrics (signed-in users): JSON, or OpenMetrics text with ?format=openmetrics.',
    allow: READ,
    get: memory.serverMetrics,
    response: record(metricsSerializer),
    ownFormat: true,
    tags: 'metrics',
  },
  {
    path: '/api/categories/',
    name: 'Category List',
    description: 'Categories (tms has none).',
    allow: LIST_CREATE,
    get: catalog.emptyList,
    response: page(categorySerializer),
    tags: 'categories',
  },
];

/** `/api/`: a link to every list. */
function apiRoot(ctx: RequestContext): Answer {
  return json(toJson(Object.fromEntries(ROOT_LISTS.map(([name, path]) => [name, ctx.urls.api(path)]))));
}

/** `/api/schema/`: the OpenAPI document of this very table. */
function schema(ctx: RequestContext): Answer {
  return json(
    toJson(
      openApiDocument(
        ROUTES,
        ROOT_LISTS.map(([name]) => name),
        ctx.urls.origin,
        ctx.services.version,
      ),
    ),
  );
}

/** The lists the API root links to, in Weblate's order. */
export const ROOT_LISTS: readonly [string, string][] = [
  ['users', 'users/'],
  ['groups', 'groups/'],
  ['roles', 'roles/'],
  ['projects', 'projects/'],
  ['components', 'components/'],
  ['translations', 'translations/'],
  ['memory', 'memory/'],
  ['languages', 'languages/'],
  ['component-lists', 'component-lists/'],
  ['changes', 'changes/'],
  ['units', 'units/'],
  ['screenshots', 'screenshots/'],
  ['addons', 'addons/'],
  ['categories', 'categories/'],
];
