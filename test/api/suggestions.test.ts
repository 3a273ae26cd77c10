// Suggestions, comments and the translation memory end to end: the permission matrix, upload method=suggest through the
// real wlc, accept (the suggestion's author in the commit), votes, source comments, statistics arithmetic, search,
// the memory kept current after upstream edits, TMX import, and /api/memory/, /api/search/, /api/metrics/, /api/component-lists/.
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Principal, checkPermission } from '../../src/auth/check.js';
import { AccessControl, LanguageSelection, ProjectSelection } from '../../src/auth/defaults.js';
import { Action } from '../../src/domain/actions.js';
import { FormatParseError } from '../../src/domain/errors.js';
import { similarity } from '../../src/domain/similarity.js';
import { parseTmx } from '../../src/formats/memory/tmx.js';
import { acceptSuggestion, addComment, commitPending, resolveComment, suggest, voteSuggestion } from '../../src/operations/index.js';
import { exportMemory, importMemory, lookupMemory } from '../../src/store/memory.repo.js';
import { unitSuggestions } from '../../src/store/suggestions.repo.js';
import { syncProject } from '../../src/sync/index.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { repoRoot } from '../helpers/corpus.js';
import { thrownBy } from '../helpers/errors.js';
import { commitToUpstream, gitCli } from '../helpers/git-repo.js';
import { type DirectSql, sqlOn } from '../helpers/store.js';

const run = promisify(execFile);
const wlcVersion = spawnSync('wlc', ['--version'], { encoding: 'utf8' }).stdout?.trim() || null;

describe('permission matrix: suggestions and comments per role and for anonymous users', () => {
  const project = { id: 1, accessControl: AccessControl.PUBLIC };
  const component = { id: 1, enableSuggestions: true, suggestionVoting: true };
  const on = { project, component, translation: { language: 'de' }, unit: {} };
  const member = (roles: string[]): Principal => ({
    teams: [{ roles, projectSelection: ProjectSelection.ALL_PUBLIC, languageSelection: LanguageSelection.ALL }],
  });
  const anonymous: Principal = { anonymous: true, active: false, teams: member(['Add suggestion', 'Access repository']).teams };
  const who: [string, Principal][] = [
    ['anonymous (Guests)', anonymous],
    ['Add suggestion', member(['Add suggestion'])],
    ['Translate', member(['Translate'])],
    ['Review strings', member(['Review strings'])],
    ['Power user', member(['Power user'])],
    ['superuser', { superuser: true, teams: [] }],
  ];
  const perms = ['suggestion.add', 'suggestion.accept', 'suggestion.delete', 'suggestion.vote', 'comment.add', 'comment.resolve', 'comment.delete'] as const;
  // rows: who; columns: perms — Weblate's built-in roles
  const expected: Record<string, boolean[]> = {
    'anonymous (Guests)': [true, false, false, false, false, false, false],
    'Add suggestion': [true, false, false, false, false, false, false],
    Translate: [true, true, false, true, true, false, false],
    'Review strings': [true, true, false, true, true, true, false],
    'Power user': [true, true, true, true, true, false, false],
    superuser: [true, true, true, true, true, true, true],
  };
  it.each(who)('%s', (name, principal) => {
    expect(perms.map((p) => checkPermission(principal, p, on).allowed)).toEqual(expected[name]);
  });
  it('authors may delete their own suggestions and resolve or delete their own comments; anonymous authors may not', () => {
    const translator = member(['Translate']);
    for (const p of ['suggestion.delete', 'comment.resolve', 'comment.delete'] as const) {
      expect(checkPermission(translator, p, { ...on, ownItem: true }).allowed).toBe(true);
      expect(checkPermission(anonymous, p, { ...on, ownItem: true }).allowed).toBe(false);
    }
  });
  it('voting needs suggestion_voting; suggestions need enable_suggestions; auto-accept makes edits need unit.override', () => {
    const translator = member(['Translate']);
    expect(checkPermission(translator, 'suggestion.vote', { ...on, component: { id: 1, suggestionVoting: false } })).toEqual({
      allowed: false,
      reason: 'voting-disabled',
    });
    expect(checkPermission(translator, 'suggestion.add', { ...on, component: { id: 1, enableSuggestions: false } }).allowed).toBe(false);
    const onlySuggestions = { ...on, component: { id: 1, suggestionVoting: true, suggestionAutoaccept: 2 } };
    expect(checkPermission(translator, 'unit.edit', onlySuggestions)).toEqual({ allowed: false, reason: 'suggestions-only' });
    expect(checkPermission(member(['Review strings']), 'unit.edit', onlySuggestions).allowed).toBe(true);
  });
});

describe('similarity', () => {
  it('ranks known pairs', () => {
    expect(similarity('Open file', 'Open file')).toBe(100);
    expect(similarity('Open file', 'Open files')).toBe(90);
    expect(similarity('Open a file', 'Open the file')).toBe(76);
    expect(similarity('Save', 'Quit')).toBe(0);
    const query = 'Delete the selected entry';
    const scored = ['Move the selected entry', 'Delete selected entry', 'Delete the selected group', 'Delete the selected entries'].map((s) => [
      s,
      similarity(query, s),
    ]);
    expect(Object.fromEntries(scored)).toEqual({
      'Delete the selected entries': 88,
      'Delete selected entry': 84,
      'Delete the selected group': 80,
      'Move the selected entry': 80,
    });
  });
});

describe('TMX import of a hand-written file', () => {
  // a BOM, a header srclang, inline codes (bpt/ept, ph), a <hi>, three languages, one unit without a target
  const tmx = `\ufeff<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4">
  <header creationtool="hand" creationtoolversion="1" datatype="html" segtype="sentence" adminlang="en" srclang="en" o-tmf="none"/>
  <body>
    <tu>
      <tuv xml:lang="en"><seg>Click <bpt i="1">&lt;b&gt;</bpt>Save<ept i="1">&lt;/b&gt;</ept> now<ph>&lt;br/&gt;</ph></seg></tuv>
      <tuv xml:lang="de-DE"><seg>Klicken Sie jetzt auf <bpt i="1">&lt;b&gt;</bpt>Speichern<ept i="1">&lt;/b&gt;</ept><ph>&lt;br/&gt;</ph></seg></tuv>
      <tuv xml:lang="cs"><seg>Nyní klikněte na <hi type="bold">Uložit</hi></seg></tuv>
    </tu>
    <tu>
      <tuv xml:lang="en"><seg>Only English</seg></tuv>
    </tu>
    <tu srclang="fr">
      <tuv xml:lang="de"><seg>Fenster</seg></tuv>
      <tuv xml:lang="fr"><seg>Fenêtre</seg></tuv>
    </tu>
  </body>
</tmx>`;

  it('reads inline codes back as markup, one entry per target language, with the BOM', () => {
    const entries = parseTmx(new TextEncoder().encode(tmx), 'hand.tmx');
    expect(entries).toEqual([
      { source: 'Click <b>Save</b> now<br/>', target: 'Klicken Sie jetzt auf <b>Speichern</b><br/>', sourceLanguage: 'en', targetLanguage: 'de-DE' },
      { source: 'Click <b>Save</b> now<br/>', target: 'Nyní klikněte na Uložit', sourceLanguage: 'en', targetLanguage: 'cs' },
      { source: 'Fenêtre', target: 'Fenster', sourceLanguage: 'fr', targetLanguage: 'de' },
    ]);
  });

  it('reads the same file in UTF-16 and refuses what is not TMX', () => {
    const text = tmx.slice(1);
    const utf16 = new Uint8Array(2 + text.length * 2);
    utf16.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) {
      utf16[2 + 2 * i] = text.charCodeAt(i) & 0xff;
      utf16[3 + 2 * i] = text.charCodeAt(i) >> 8;
    }
    expect(parseTmx(utf16, 'hand16.tmx')).toHaveLength(3);
    expect(thrownBy(FormatParseError, () => parseTmx(new TextEncoder().encode('<xliff/>'), 'x.tmx')).data).toMatchObject({ filename: 'x.tmx', line: 1 });
  });
});

describe('suggestions, comments and memory over HTTP', () => {
  let env: WriteEnv;
  const unitOf = async (lang: string, source: string, token?: string) => {
    const r = await env.request('GET', `/api/translations/hello/app/${lang}/units/`, { token });
    return r.json.results.find((u: { source: string[] }) => u.source[0] === source);
  };
  const stats = async (lang: string) => (await env.request('GET', `/api/translations/hello/app/${lang}/statistics/`)).json;
  const userId = async (name: string) => (await sqlOn(env.store).value('SELECT id FROM users WHERE username = ?', name)) as number;
  const changes = async (action: number) => (await sqlOn(env.store).value('SELECT count(*) FROM changes WHERE action = ?', action)) as number;

  beforeAll(async () => {
    env = await createWriteEnv();
  });
  afterAll(() => env.close());

  (wlcVersion ? it : it.skip)(
    `upload --method suggest through wlc (${wlcVersion ?? 'not installed'}): counters, change 4 per string, flags, statistics, search`,
    async () => {
      writeFileSync(path.join(env.root, 'wlc.ini'), `[weblate]\nurl = ${env.origin}/api/\nkey = ${env.tokens.jane}\n`);
      const file = path.join(env.root, 'de-suggest.ts');
      const original = readFileSync(path.join(repoRoot, 'fixtures', 'demo', 'app', 'translations', 'app_de.ts'), 'utf8');
      // Quit gets a translation (a suggestion), Open a file keeps its current text (skipped), &File changes (a suggestion)
      writeFileSync(
        file,
        original.replace('<translation type="unfinished"></translation>', '<translation>Beenden</translation>').replace('&amp;Datei<', '&amp;Ablage<'),
      );
      const before = await changes(Action.SUGGESTION);
      const { stdout, stderr } = await run(
        'wlc',
        ['--config', path.join(env.root, 'wlc.ini'), 'upload', 'hello/app/de', '--input', file, '--method', 'suggest'],
        {
          cwd: env.root,
          env: { ...process.env, HOME: env.root, XDG_CONFIG_HOME: env.root, XDG_CONFIG_DIRS: env.root },
          encoding: 'utf8',
        },
      );
      expect(stderr).toBe('');
      expect(stdout).toBe('');
      expect((await changes(Action.SUGGESTION)) - before).toBe(2);
      const quit = await unitOf('de', 'Quit');
      expect(quit).toMatchObject({ has_suggestion: true, target: [''] });
      expect((await unitOf('de', 'Open a file')).has_suggestion).toBe(false);
      expect((await stats('de')).suggestions).toBe(2);
      expect((await env.request('GET', '/api/translations/hello/app/de/')).json.have_suggestion).toBe(2);
      const search = async (q: string) => (await env.request('GET', `/api/translations/hello/app/de/units/?q=${encodeURIComponent(q)}`)).json.count;
      expect(await search('has:suggestion')).toBe(2);
      expect(await search('suggestion:Ablage')).toBe(1);
      expect(await search('suggestion_author:jane')).toBe(2);
      expect(await search('suggestion_author:mike')).toBe(0);
    },
  );

  it('accepts a suggestion (7) with its author as the commit author; votes auto-accept', async () => {
    const quit = await unitOf('de', 'Quit');
    const jane = { id: await userId('jane') };
    const admin = { id: await userId('admin') };
    const mike = { id: await userId('mike') };
    let [s] = await env.store.read((tx) => unitSuggestions(tx, quit.id));
    if (!s) {
      await suggest(env.store, { unitId: quit.id, target: ['Beenden'], user: jane });
      [s] = await env.store.read((tx) => unitSuggestions(tx, quit.id));
    }
    expect(await suggest(env.store, { unitId: quit.id, target: [s!.target], user: jane })).toBeNull();
    const accepts = await changes(Action.ACCEPT);
    await acceptSuggestion(env.store, s!.id, admin);
    expect((await changes(Action.ACCEPT)) - accepts).toBe(1);
    const after = await unitOf('de', 'Quit');
    expect(after).toMatchObject({ target: [s!.target], has_suggestion: false, pending: true, state: 20 });
    // a suggestion equal to the translation now is skipped
    expect(await suggest(env.store, { unitId: quit.id, target: [s!.target], user: jane })).toBeNull();
    const handle = await import('../../src/component/handle.js');
    const h = await handle.openComponent(env.store, env.config, env.config.projects[0]!, env.config.projects[0]!.components[0]!);
    await commitPending(h, { user: admin });
    // app commits without pushing: the commit is in the component's working copy
    const author = (await gitCli(h.dir, ['log', '-1', '--format=%an <%ae>'])).trim();
    expect(author).toBe('Jane Doe <jane@example.org>');

    // votes: at the auto-accept threshold the suggestion is taken
    const about = await unitOf('de', 'About %1');
    const id = await suggest(env.store, { unitId: about.id, target: ['Über %1 (neu)'], user: jane });
    expect(await voteSuggestion(env.store, id!, mike, 1, 2)).toEqual({ votes: 1, accepted: false });
    expect(await voteSuggestion(env.store, id!, mike, 1, 2)).toEqual({ votes: 1, accepted: false });
    expect(await voteSuggestion(env.store, id!, admin, 1, 2)).toEqual({ votes: 2, accepted: true });
    expect((await unitOf('de', 'About %1')).target).toEqual(['Über %1 (neu)']);
  });

  it('comments: a source comment shows in every language; resolve and counts at every level', async () => {
    const jane = { id: await userId('jane') };
    const sourceUnit = await unitOf('en', 'Open a file');
    const project0 = (await env.request('GET', '/api/projects/hello/statistics/')).json.comments;
    const [de0, cs0] = [(await stats('de')).comments, (await stats('cs')).comments];
    const id = await addComment(env.store, { unitId: sourceUnit.id, comment: 'Is "a" needed here?', user: jane });
    const own = await addComment(env.store, { unitId: (await unitOf('cs', 'Quit')).id, comment: 'Check the accelerator', user: jane });
    expect(await changes(Action.COMMENT)).toBe(2);
    expect((await unitOf('de', 'Open a file')).has_comment).toBe(true);
    expect((await unitOf('cs', 'Open a file')).has_comment).toBe(true);
    expect((await unitOf('de', 'Quit')).has_comment).toBe(false);
    expect((await stats('de')).comments).toBe(de0 + 1);
    expect((await stats('cs')).comments).toBe(cs0 + 2);
    // project = sum of every translation (source included): en, de, cs each see the source comment, cs its own
    expect((await env.request('GET', '/api/projects/hello/statistics/')).json.comments).toBe(project0 + 4);
    expect((await env.request('GET', '/api/languages/cs/statistics/')).json.comments).toBe(cs0 + 2);
    const search = async (lang: string, q: string) =>
      (await env.request('GET', `/api/translations/hello/app/${lang}/units/?q=${encodeURIComponent(q)}`)).json.count;
    expect(await search('de', 'has:comment')).toBe(1);
    expect(await search('de', 'comment:needed')).toBe(1);
    expect(await search('cs', 'comment_author:jane')).toBe(2);
    await resolveComment(env.store, id, jane);
    expect(await changes(Action.COMMENT_RESOLVE)).toBe(1);
    expect((await stats('de')).comments).toBe(de0);
    expect(await search('de', 'resolved_comment:needed')).toBe(1);
    expect(await search('de', 'comment:needed')).toBe(0);
    expect((await env.request('GET', '/api/projects/hello/statistics/')).json.comments).toBe(project0 + 1);
    expect(own).toBeGreaterThan(0);
  });

  it('the memory holds every translated string and follows upstream edits', async () => {
    const en = (await sqlOn(env.store).value("SELECT id FROM languages WHERE code = 'en'")) as number;
    const de = (await sqlOn(env.store).value("SELECT id FROM languages WHERE code = 'de'")) as number;
    const all = { projects: null, userId: null };
    const exact = await env.store.read((tx) => lookupMemory(tx, 'Open a file', en, de, all));
    expect(exact[0]).toMatchObject({ source: 'Open a file', target: 'Eine Datei öffnen', similarity: 100, origin: 'hello/app' });
    const fuzzy = await env.store.read((tx) => lookupMemory(tx, 'Open a files', en, de, all));
    expect(fuzzy[0]).toMatchObject({ target: 'Eine Datei öffnen', similarity: 91 });
    expect(await env.store.read((tx) => lookupMemory(tx, 'Something else entirely', en, de, all))).toEqual([]);
    // upstream changes a German translation (web: nothing pending there): after the sync the memory has the new text only
    expect((await env.store.read((tx) => lookupMemory(tx, 'Save', en, de, all))).map((m) => m.target)).toEqual(['Speichern']);
    const file = 'locales/de.json';
    const current = await gitCli(env.upstream('web'), ['show', `main:${file}`]);
    await commitToUpstream(env.upstream('web'), { [file]: current.replace('"Speichern"', '"Sichern"') });
    const [synced] = await syncProject(env.store, env.config, 'hello', 'web');
    expect(synced?.ok, synced?.error).toBe(true);
    const targets = (await env.store.read((tx) => lookupMemory(tx, 'Save', en, de, all))).map((m) => m.target);
    expect(targets).toEqual(['Sichern']);
  });

  it('imports and exports TMX and JSON memory per scope; lookups see personal, project and shared entries', async () => {
    const en = (await sqlOn(env.store).value("SELECT id FROM languages WHERE code = 'en'")) as number;
    const de = (await sqlOn(env.store).value("SELECT id FROM languages WHERE code = 'de'")) as number;
    const jane = await userId('jane');
    const r = await env.store.write((tx) =>
      importMemory(
        tx,
        [
          { source: 'Preferences', target: 'Einstellungen', sourceLanguage: 'en', targetLanguage: 'de' },
          { source: 'Preferences', target: 'Einstellungen', sourceLanguage: 'en', targetLanguage: 'de' },
          { source: 'x', target: 'y', sourceLanguage: 'en', targetLanguage: 'zz_unknown' },
        ],
        { kind: 'user', userId: jane },
      ),
    );
    expect(r).toEqual({ imported: 1, skipped: 2, reasons: { duplicate: 1, 'unknown-language': 1 }, unknownLanguages: ['zz_unknown'] });
    expect(await env.store.read((tx) => lookupMemory(tx, 'Preferences', en, de, { projects: null, userId: jane }))).toHaveLength(1);
    expect(await env.store.read((tx) => lookupMemory(tx, 'Preferences', en, de, { projects: null, userId: null }))).toHaveLength(0);
    expect((await env.store.read((tx) => exportMemory(tx, { kind: 'user', userId: jane }))).map((m) => m.target)).toEqual(['Einstellungen']);
  });

  it('/api/memory/: superusers list it by id with pagination; delete per memory.delete; others 403, anonymous 401', async () => {
    const sql = sqlOn(env.store);
    const translated = (await sql.value(
      "SELECT count(*) FROM units u JOIN translations t ON t.id = u.translation_id WHERE t.is_source = 0 AND u.state >= 20 AND u.state < 100 AND u.target <> ''",
    )) as number;
    const total = translated + ((await sql.value('SELECT count(*) FROM memory')) as number);
    const list = await env.request('GET', '/api/memory/', { token: env.tokens.admin });
    expect(list.status, list.text).toBe(200);
    expect(list.json.count).toBe(total);
    expect(Object.keys(list.json.results[0])).toEqual([
      'id',
      'source',
      'target',
      'source_language',
      'target_language',
      'origin',
      'project',
      'from_file',
      'shared',
    ]);
    const ids = list.json.results.map((m: { id: number }) => m.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const page = await env.request('GET', '/api/memory/?page_size=2', { token: env.tokens.admin });
    expect(page.json.results).toHaveLength(2);
    expect(page.json.next).toContain('page=2');
    expect((await env.request('GET', '/api/memory/', { token: env.tokens.jane })).json.errors[0].detail).toBe('Access not allowed');
    expect((await env.request('GET', '/api/memory/')).status).toBe(401);
    const first = list.json.results[0].id;
    expect((await env.request('DELETE', `/api/memory/${first}/`, { token: env.tokens.jane })).status).toBe(403);
    expect((await env.request('DELETE', `/api/memory/${first}/`, { token: env.tokens.admin })).status).toBe(204);
    expect((await env.request('GET', `/api/memory/${first}/`, { token: env.tokens.admin })).status).toBe(404);
    expect((await env.request('GET', '/api/memory/abc/', { token: env.tokens.admin })).status).toBe(404);
    // the records are the units' translations (by unit id), then the imported entries: a deleted unit record is
    // hidden from lookups and the count, an imported one follows the last unit record
    const deleted = list.json.results[0] as { source: string; target: string; source_language: number; target_language: number };
    const visibleTargets = async () =>
      (await env.store.read((tx) => lookupMemory(tx, deleted.source, deleted.source_language, deleted.target_language, { projects: null, userId: null }))).map(
        (m) => m.target,
      );
    expect(await visibleTargets()).not.toContain(deleted.target);
    expect((await env.request('GET', '/api/memory/', { token: env.tokens.admin })).json.count).toBe(total - 1);
    await env.store.write((tx) =>
      importMemory(tx, [{ source: 'Imported only', target: 'Nur importiert', sourceLanguage: 'en', targetLanguage: 'de' }], { kind: 'shared' }),
    );
    const all = await env.request('GET', `/api/memory/?page_size=1000`, { token: env.tokens.admin });
    expect(all.json.count).toBe(total);
    const last = all.json.results.at(-1);
    expect(last).toMatchObject({ source: 'Imported only', target: 'Nur importiert', from_file: true, shared: true, project: null });
    expect(last.id).toBeGreaterThan(2 ** 40);
    // units' records (below 2^40, from_file false) all come before the imported ones (an earlier test imported one)
    const kinds = all.json.results.map((r: { id: number; from_file: boolean }) => (r.id < 2 ** 40 ? (r.from_file ? 'bad' : 'unit') : 'file'));
    expect(kinds.join(',')).toMatch(/^(unit,)+(file,)*file$/);
    // the second-to-last page boundary: a page that starts in the units and ends in the imported entries
    const split = await env.request('GET', `/api/memory/?page_size=2&page=${Math.ceil(total / 2)}`, { token: env.tokens.admin });
    expect(split.json.results.at(-1).id).toBe(last.id);
    expect((await env.request('GET', `/api/memory/${last.id}/`, { token: env.tokens.admin })).json.target).toBe('Nur importiert');
    expect((await env.request('DELETE', `/api/memory/${last.id}/`, { token: env.tokens.admin })).status).toBe(204);
    expect((await env.request('GET', `/api/memory/${last.id}/`, { token: env.tokens.admin })).status).toBe(404);
  });

  it('/api/search/, /api/metrics/ (JSON and OpenMetrics) and the API root', async () => {
    const s = await env.request('GET', '/api/search/?q=hel');
    expect(s.status).toBe(200);
    expect(s.json[0]).toEqual({ url: '/projects/hello/', name: 'Hello', category: 'Project' });
    expect(s.json.filter((r: { category: string }) => r.category === 'Component').map((r: { name: string }) => r.name)).toEqual([]);
    const app = await env.request('GET', '/api/search/?q=app');
    expect(app.json).toContainEqual({ url: '/projects/hello/app/', name: 'Hello/App', category: 'Component' });
    const czech = await env.request('GET', '/api/search/?q=czech');
    expect(czech.json).toContainEqual({ url: '/languages/cs/', name: 'Czech', category: 'Language' });
    expect((await env.request('GET', '/api/search/')).json).toEqual([]);
    expect((await env.request('GET', '/api/metrics/')).status).toBe(401);
    const m = await env.request('GET', '/api/metrics/', { token: env.tokens.jane });
    expect(Object.keys(m.json)).toEqual([
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
      'celery_queues',
      'name',
    ]);
    expect(m.json.projects).toBe(1);
    expect(m.json.suggestions).toBe(await sqlOn(env.store).value('SELECT count(*) FROM suggestions'));
    const om = await env.request('GET', '/api/metrics/?format=openmetrics', { token: env.tokens.jane });
    expect(om.headers.get('content-type')).toContain('application/openmetrics-text');
    expect(om.text).toContain(`# TYPE units gauge\nunits ${m.json.units}\n`);
    expect(om.text.trimEnd().endsWith('# EOF')).toBe(true);
    expect((await env.request('GET', '/api/metrics/?format=xml', { token: env.tokens.jane })).status).toBe(404);
  });

  it('/api/component-lists/: create (componentlist.edit), components, records, delete', async () => {
    const body = { name: 'Featured', slug: 'featured' };
    expect((await env.request('POST', '/api/component-lists/', { token: env.tokens.jane, json: body })).status).toBe(403);
    const created = await env.request('POST', '/api/component-lists/', { token: env.tokens.admin, json: body });
    expect(created.status, created.text).toBe(201);
    expect(Object.keys(created.json)).toEqual(['name', 'slug', 'id', 'show_dashboard', 'components', 'auto_assign', 'url']);
    expect((await env.request('POST', '/api/component-lists/', { token: env.tokens.admin, json: body })).status).toBe(400);
    expect((await env.request('POST', '/api/component-lists/', { token: env.tokens.admin, json: { name: 'x' } })).json.errors[0].attr).toBe('slug');
    const componentId = (await env.request('GET', '/api/components/hello/web/')).json.id;
    const added = await env.request('POST', '/api/component-lists/featured/components/', { token: env.tokens.admin, json: { component_id: componentId } });
    expect(added.json.components).toEqual([`${env.origin}/api/components/hello/web/`]);
    expect((await env.request('POST', '/api/component-lists/featured/components/', { token: env.tokens.admin, json: { component_id: 'nope' } })).status).toBe(
      400,
    );
    const components = await env.request('GET', '/api/component-lists/featured/components/');
    expect(components.json.results.map((c: { slug: string }) => c.slug)).toEqual(['web']);
    expect((await env.request('GET', '/api/component-lists/')).json.count).toBe(1);
    expect((await env.request('DELETE', '/api/component-lists/featured/components/web/', { token: env.tokens.admin })).status).toBe(204);
    expect((await env.request('DELETE', '/api/component-lists/featured/', { token: env.tokens.jane })).status).toBe(403);
    expect((await env.request('DELETE', '/api/component-lists/featured/', { token: env.tokens.admin })).status).toBe(204);
    expect((await env.request('GET', '/api/component-lists/featured/')).status).toBe(404);
  });
});
