// A monolingual template's source edited where the translations' files state "needs editing" (po-mono): the strings
// marked are pending, the commit writes their flag, and the next sync reads it back as it was. And what such an edit
// costs: a fixed number of statements however many translations it marks.
import { mkdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openComponent } from '../../src/component/handle.js';
import { Action } from '../../src/domain/actions.js';
import { State } from '../../src/domain/unit.js';
import { acceptSuggestion, suggest } from '../../src/operations/discussion.js';
import { commitPending, editUnit } from '../../src/operations/index.js';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { createUser } from '../../src/store/users.repo.js';
import { syncProject } from '../../src/sync/index.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { gitCli, tempDir } from '../helpers/git-repo.js';
import { type Counts, counting, sqlOn } from '../helpers/store.js';
import { helloConfig } from '../helpers/sync-env.js';

const po = (language: string, entries: [string, string][], flags: Record<string, string> = {}) =>
  [
    'msgid ""',
    'msgstr ""',
    `"Language: ${language}\\n"`,
    '"Content-Type: text/plain; charset=UTF-8\\n"',
    '',
    ...entries.flatMap(([key, text]) => [...(flags[key] ? [flags[key]] : []), `msgid "${key}"`, `msgstr "${text}"`, '']),
  ].join('\n');

describe('a po-mono template source edited', () => {
  let root: string;
  let upstream: string;
  let store: Store;
  const config = () =>
    helloConfig(
      root,
      { repo: upstream, filemask: 'po/*.po', template: 'po/en.po', file_format: 'po-mono', push_on_commit: true },
      { committer: { name: 'tms test', email: 'tms@test.invalid' } },
    );
  const unitOf = async (language: string, key: string) =>
    (await sqlOn(store).row(
      `SELECT u.id, u.source, u.target, u.state, u.previous_source AS "previousSource", u.pending FROM units u
       JOIN translations t ON t.id = u.translation_id WHERE t.language_code = ? AND u.context = ?`,
      language,
      key,
    )) as { id: number; source: string; target: string; state: number; previousSource: string; pending: number };

  beforeAll(async () => {
    root = await tempDir('tms-template-source-');
    const work = path.join(root, 'work');
    mkdirSync(path.join(work, 'po'), { recursive: true });
    writeFileSync(
      path.join(work, 'po', 'en.po'),
      po('en', [
        ['save', 'Save'],
        ['open', 'Open'],
      ]),
    );
    writeFileSync(
      path.join(work, 'po', 'de.po'),
      po('de', [
        ['save', 'Speichern'],
        ['open', 'Öffnen'],
      ]),
    );
    await gitCli(work, ['init', '-q', '-b', 'main']);
    await gitCli(work, ['add', '-A']);
    await gitCli(work, ['commit', '-q', '-m', 'po-mono']);
    upstream = path.join(root, 'upstream.git');
    await gitCli(root, ['clone', '-q', '--bare', work, upstream]);
    store = await openStore(path.join(root, 'tms.sqlite'));
    const [r] = await syncProject(store, config(), 'hello');
    expect(r?.ok).toBe(true);
  });
  afterAll(async () => {
    await store?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('marks the German string pending, writes its fuzzy flag with the template, and a sync keeps it needing editing', async () => {
    expect(await unitOf('de', 'save')).toMatchObject({ source: 'Save', target: 'Speichern', state: State.TRANSLATED, pending: 0 });
    const user = (await store.write((tx) => createUser(tx, { username: 'mike', email: 'mike@example.org' }))).user;
    const save = await unitOf('en', 'save');
    await editUnit(store, { unitId: save.id, target: ['Save all'], state: State.TRANSLATED, user });
    expect(await unitOf('de', 'save')).toMatchObject({ source: 'Save all', target: 'Speichern', state: State.FUZZY, previousSource: 'Save', pending: 1 });
    expect(await unitOf('de', 'open')).toMatchObject({ state: State.TRANSLATED, pending: 0 });

    const head = await gitCli(upstream, ['rev-parse', 'main']);
    const project = config().projects[0]!;
    const result = await commitPending(await openComponent(store, config(), project, project.components[0]!), { user });
    expect(result.result).toBe(true);
    expect((await gitCli(upstream, ['diff', '--name-only', head, 'main'])).trim().split('\n')).toEqual(['po/de.po', 'po/en.po']);
    const de = await gitCli(upstream, ['show', 'main:po/de.po']);
    expect(de).toMatch(/#, fuzzy\nmsgid "save"\nmsgstr "Speichern"/);
    expect(de).toMatch(/\n\nmsgid "open"\nmsgstr "Öffnen"/);

    const [r] = await syncProject(store, config(), 'hello');
    expect(r?.ok).toBe(true);
    expect(r?.changed).toBe(0);
    expect(await unitOf('de', 'save')).toMatchObject({ source: 'Save all', target: 'Speichern', state: State.FUZZY, previousSource: 'Save', pending: 0 });
    expect(await unitOf('de', 'open')).toMatchObject({ source: 'Open', state: State.TRANSLATED });
  });
});

describe('what a template source edit costs', () => {
  let env: WriteEnv;
  beforeAll(async () => {
    env = await createWriteEnv();
  }, 120_000);
  afterAll(async () => {
    await env?.close();
  });

  /** Edits the template's string `key` to `text`, counted: the statements run, and how many strings it marked. */
  const edit = async (key: string, text: string): Promise<{ statements: number; marked: number }> => {
    const unit = (await sqlOn(env.store).value(
      `SELECT u.id FROM units u JOIN translations t ON t.id = u.translation_id
       WHERE t.is_source = 1 AND u.context = ? AND t.component_id = (SELECT id FROM components WHERE slug = 'web')`,
      key,
    )) as number;
    const counts: Counts = { transactions: 0, statements: 0, writeStatements: 0 };
    await editUnit(counting(env.store, counts), { unitId: unit, target: [text], state: State.TRANSLATED, user: { id: 1 } });
    const marked = await sqlOn(env.store).value(`SELECT count(*) FROM changes WHERE action = ${Action.SOURCE_CHANGE} AND target = ?`, text);
    return { statements: counts.writeStatements!, marked: Number(marked) };
  };

  it('marks the translations when a suggestion for the template string is accepted, as an edit does', async () => {
    const unitOf = async (language: string) =>
      (await sqlOn(env.store).row(
        `SELECT u.id, u.source, u.state, u.previous_source AS "previousSource" FROM units u JOIN translations t ON t.id = u.translation_id
         WHERE t.language_code = ? AND u.context = 'app.title' AND t.component_id = (SELECT id FROM components WHERE slug = 'web')`,
        language,
      )) as { id: number; source: string; state: number; previousSource: string };
    const suggestion = await suggest(env.store, { unitId: (await unitOf('en')).id, target: ['Hello, tms'], user: null });
    expect(await unitOf('de')).toMatchObject({ source: 'Hello tms', state: State.TRANSLATED });
    await acceptSuggestion(env.store, suggestion!, { id: 1 });
    expect(await unitOf('en')).toMatchObject({ source: 'Hello, tms' });
    expect(await unitOf('de')).toMatchObject({ source: 'Hello, tms', state: State.FUZZY, previousSource: 'Hello tms' });
  });

  it('runs as many statements marking the strings of 6 translations as of 2', async () => {
    const two = await edit('menu.open', 'Open a file');
    expect(two.marked).toBe(2);
    for (const code of ['fr', 'it', 'pl', 'sv']) {
      const added = await env.request('POST', '/api/components/hello/web/translations/', { token: env.tokens.admin, json: { language_code: code } });
      expect(added.status, added.text).toBe(201);
    }
    const six = await edit('menu.save', 'Save the file');
    expect(six.marked).toBe(6);
    expect(six.statements).toBe(two.statements);
  });
});
