import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Action } from '../../src/domain/actions.js';
import { State } from '../../src/domain/unit.js';
import type { Store } from '../../src/store/index.js';
import { syncProject } from '../../src/sync/index.js';
import { runCli } from '../helpers/cli.js';
import { commitToUpstream } from '../helpers/git-repo.js';
import { type DirectSql, rowsWritten, sqlOn } from '../helpers/store.js';
import { CREDENTIALS, DEMO, type SyncEnv, createSyncEnv, demoFile } from '../helpers/sync-env.js';

const glossaryComponent = (repo: string, extra: Record<string, unknown> = {}) => ({
  name: 'Glossary',
  slug: 'glossary',
  repo,
  branch: 'main',
  filemask: 'glossary/*.tbx',
  file_format: 'tbx',
  ...extra,
});

async function unitsOf(sql: DirectSql, project: string, component: string, language: string) {
  return (await sql.rows(
    `SELECT u.id, u.context, u.source, u.target, u.state, u.position, u.pending FROM units u
     JOIN translations t ON t.id = u.translation_id JOIN components c ON c.id = t.component_id
     JOIN projects p ON p.id = c.project_id JOIN languages l ON l.id = t.language_id
     WHERE p.slug = ? AND c.slug = ? AND l.code = ? ORDER BY u.position`,
    project,
    component,
    language,
  )) as { id: number; context: string; source: string; target: string; state: number; position: number; pending: number }[];
}

async function translationsOf(sql: DirectSql, component: string) {
  return await sql.rows(
    `SELECT l.code, t.filename, t.is_source, t.parse_error, s.total, s.translated, s.readonly FROM translations t
     JOIN components c ON c.id = t.component_id JOIN languages l ON l.id = t.language_id
     LEFT JOIN translation_stats s ON s.translation_id = t.id WHERE c.slug = ? ORDER BY l.code`,
    component,
  );
}

describe('sync over smart HTTP (with credentials in the URL)', () => {
  let env: SyncEnv;
  let store: Store;
  let sql: DirectSql;
  let url: string;
  beforeAll(async () => {
    env = await createSyncEnv();
    await env.addUpstream('glossary', { fixture: path.join(DEMO, 'glossary'), into: 'glossary' }).then(() => undefined);
    url = env.server.url('glossary.git', CREDENTIALS);
    store = await env.openStore();
    sql = sqlOn(store);
  });
  afterAll(() => env.close());

  const config = () => env.config([{ name: 'Hello', slug: 'hello', components: [glossaryComponent(url)] }]);

  it('clones and loads translations, source strings, statistics and changes on the first sync', async () => {
    const [r] = await syncProject(store, config(), 'hello');
    expect(r!.error).toBeUndefined();
    expect(r!.ok).toBe(true);
    expect(r!.update).toBe('cloned');
    expect(r!.parsed).toBe(2);
    expect(r!.files.map((f) => [f.path, f.language, f.status])).toEqual([
      ['glossary/cs.tbx', 'cs', 'parsed'],
      ['glossary/de.tbx', 'de', 'parsed'],
    ]);
    expect(await translationsOf(sql, 'glossary')).toEqual([
      { code: 'cs', filename: 'glossary/cs.tbx', is_source: 0, parse_error: null, total: 3, translated: 2, readonly: 0 },
      { code: 'de', filename: 'glossary/de.tbx', is_source: 0, parse_error: null, total: 3, translated: 2, readonly: 0 },
      { code: 'en', filename: '', is_source: 1, parse_error: null, total: 3, translated: 3, readonly: 3 },
    ]);
    const de = await unitsOf(sql, 'hello', 'glossary', 'de');
    expect(de.map((u) => [u.source, u.target, u.state, u.position])).toEqual([
      ['file', 'Datei', State.TRANSLATED, 1],
      ['folder', 'Ordner', State.TRANSLATED, 2],
      ['repository', '', State.EMPTY, 3],
    ]);
    const en = await unitsOf(sql, 'hello', 'glossary', 'en');
    expect(en.map((u) => [u.source, u.target, u.state])).toEqual([
      ['file', 'file', State.READONLY],
      ['folder', 'folder', State.READONLY],
      ['repository', 'repository', State.READONLY],
    ]);
    const added = (await sql.rows(
      'SELECT unit_id, translation_id, user_id, author_id, target FROM changes WHERE action = ? ORDER BY id',
      Action.NEW_SOURCE,
    )) as Record<string, unknown>[];
    expect(added).toHaveLength(3);
    expect(added.map((c) => c.unit_id)).toEqual(en.map((u) => u.id));
    expect(added.every((c) => c.user_id === null && c.author_id === null && c.target === '')).toBe(true);
  });

  it('does no parsing and writes nothing when upstream did not change', async () => {
    const before = await rowsWritten(store);
    const snapshot = await sql.rows('SELECT id, target, timestamp FROM units ORDER BY id');
    const [r] = await syncProject(store, config(), 'hello');
    expect(r!.ok).toBe(true);
    expect(r!.update).toBe('up-to-date');
    expect(r!.parsed).toBe(0);
    expect(r!.files.every((f) => f.status === 'unchanged')).toBe(true);
    expect(await sql.rows('SELECT id, target, timestamp FROM units ORDER BY id')).toEqual(snapshot);
    expect((await rowsWritten(store)) - before).toBe(0);
    expect(await sql.value('SELECT count(*) FROM changes')).toBe(3);
  });

  it('re-parses only the changed file and keeps untouched unit rows', async () => {
    const deBefore = await unitsOf(sql, 'hello', 'glossary', 'de');
    const csBefore = await unitsOf(sql, 'hello', 'glossary', 'cs');
    await commitToUpstream(env.upstream('glossary'), {
      'glossary/de.tbx': demoFile('glossary/de.tbx').replace('<term>Ordner</term>', '<term>Verzeichnis</term>'),
    });
    const [r] = await syncProject(store, config(), 'hello');
    expect(r!.ok).toBe(true);
    expect(r!.update).toBe('fast-forward');
    expect(r!.parsed).toBe(1);
    expect(r!.files.find((f) => f.path === 'glossary/de.tbx')).toMatchObject({ status: 'parsed', added: 0, changed: 1, removed: 0 });
    expect(r!.files.find((f) => f.path === 'glossary/cs.tbx')).toMatchObject({ status: 'unchanged' });
    const deAfter = await unitsOf(sql, 'hello', 'glossary', 'de');
    expect(deAfter.map((u) => u.id)).toEqual(deBefore.map((u) => u.id));
    expect(deAfter[1]!.target).toBe('Verzeichnis');
    expect(await unitsOf(sql, 'hello', 'glossary', 'cs')).toEqual(csBefore);
  });

  it('adds a language when a file appears and removes it when the file goes', async () => {
    const fr = demoFile('glossary/de.tbx')
      .replace('xml:lang="de"', 'xml:lang="fr"')
      .replace('<term>Datei</term>', '<term>fichier</term>')
      .replace('<term>Verzeichnis</term>', '<term/>')
      .replace('<term>Ordner</term>', '<term/>');
    await commitToUpstream(env.upstream('glossary'), { 'glossary/fr.tbx': fr, 'glossary/new-term.txt': 'not in the mask' });
    const [added] = await syncProject(store, config(), 'hello');
    expect(added!.ok).toBe(true);
    expect(added!.files.find((f) => f.path === 'glossary/fr.tbx')).toMatchObject({ language: 'fr', status: 'parsed', added: 3 });
    expect((await unitsOf(sql, 'hello', 'glossary', 'fr')).map((u) => u.target)).toEqual(['fichier', '', '']);

    await commitToUpstream(env.upstream('glossary'), { 'glossary/fr.tbx': null });
    const [removed] = await syncProject(store, config(), 'hello');
    expect(removed!.files.find((f) => f.path === 'glossary/fr.tbx')).toMatchObject({ status: 'removed', removed: 3 });
    expect(await unitsOf(sql, 'hello', 'glossary', 'fr')).toEqual([]);
    expect(await unitsOf(sql, 'hello', 'glossary', 'en')).toHaveLength(3);
  });

  it('adds and removes source strings as the files change', async () => {
    const entry =
      '      <termEntry>\n        <langSet xml:lang="en">\n          <tig>\n            <term>branch</term>\n          </tig>\n        </langSet>\n      </termEntry>\n    </body>';
    const de = (await import('node:fs')).readFileSync(path.join(env.root, 'repos', 'hello', 'glossary', 'glossary', 'de.tbx'), 'utf8');
    await commitToUpstream(env.upstream('glossary'), { 'glossary/de.tbx': de.replace('    </body>', entry) });
    const [r] = await syncProject(store, config(), 'hello');
    expect(r!.added).toBe(1);
    expect((await unitsOf(sql, 'hello', 'glossary', 'en')).map((u) => u.source)).toEqual(['file', 'folder', 'repository', 'branch']);
    expect(await sql.value('SELECT count(*) FROM changes WHERE action = ?', Action.NEW_SOURCE)).toBe(4);

    await commitToUpstream(env.upstream('glossary'), { 'glossary/de.tbx': de });
    await syncProject(store, config(), 'hello');
    expect((await unitsOf(sql, 'hello', 'glossary', 'en')).map((u) => u.source)).toEqual(['file', 'folder', 'repository']);
  });

  it('records a parse error for one broken file, keeps its units and syncs the others', async () => {
    const deBefore = await unitsOf(sql, 'hello', 'glossary', 'de');
    await commitToUpstream(env.upstream('glossary'), {
      'glossary/de.tbx': '<?xml version="1.0"?>\n<martif type="TBX">\n  <text><body>\n',
      'glossary/cs.tbx': demoFile('glossary/cs.tbx').replace('<term>Složka</term>', '<term>Adresář</term>'),
    });
    const [r] = await syncProject(store, config(), 'hello');
    expect(r!.ok).toBe(false);
    const de = r!.files.find((f) => f.path === 'glossary/de.tbx')!;
    expect(de.status).toBe('failed');
    expect(de.error).toMatch(/^glossary\/de\.tbx:\d+:\d+: /);
    expect(r!.files.find((f) => f.path === 'glossary/cs.tbx')).toMatchObject({ status: 'parsed', changed: 1 });
    expect(await unitsOf(sql, 'hello', 'glossary', 'de')).toEqual(deBefore);
    const failure = (await sql.row('SELECT target, details FROM changes WHERE action = ?', Action.PARSE_ERROR)) as { target: string; details: string };
    expect(failure.target).toBe(de.error);
    expect((await translationsOf(sql, 'glossary')).find((t) => (t as { code: string }).code === 'de')).toMatchObject({ parse_error: de.error });

    // the same broken blob again: no second change record
    const [again] = await syncProject(store, config(), 'hello', undefined, { force: true });
    expect(again!.ok).toBe(false);
    expect(await sql.value('SELECT count(*) FROM changes WHERE action = ?', Action.PARSE_ERROR)).toBe(1);

    await commitToUpstream(env.upstream('glossary'), { 'glossary/de.tbx': demoFile('glossary/de.tbx') });
    const [fixed] = await syncProject(store, config(), 'hello');
    expect(fixed!.ok).toBe(true);
    expect((await translationsOf(sql, 'glossary')).find((t) => (t as { code: string }).code === 'de')).toMatchObject({ parse_error: null });
  });

  it('keeps a pending edit when upstream changes the same unit, and reports it', async () => {
    const folder = (await unitsOf(sql, 'hello', 'glossary', 'de')).find((u) => u.source === 'folder')!;
    await sql.run('UPDATE units SET target = ?, pending = 1 WHERE id = ?', 'Mappe', folder.id);
    await commitToUpstream(env.upstream('glossary'), {
      'glossary/de.tbx': demoFile('glossary/de.tbx')
        .replace('<term>Ordner</term>', '<term>Katalog</term>')
        .replace('<term>Datei</term>', '<term>Die Datei</term>'),
    });
    const [r] = await syncProject(store, config(), 'hello');
    expect(r!.ok).toBe(true);
    expect(r!.pendingKept).toEqual([{ translation: 'glossary/de.tbx', context: folder.context, fileTarget: 'Katalog' }]);
    const after = await unitsOf(sql, 'hello', 'glossary', 'de');
    expect(after.find((u) => u.id === folder.id)).toMatchObject({ target: 'Mappe', pending: 1 });
    expect(after.find((u) => u.source === 'file')?.target).toBe('Die Datei');
  });

  it('never prints the credentials: not in results, errors, the store or the CLI output', async () => {
    const bad = env.server.url('glossary.git', { username: CREDENTIALS.username, password: 'wrong-Pa55word' });
    const cfg = env.config([{ name: 'Other', slug: 'other', components: [glossaryComponent(bad)] }]);
    const [r] = await syncProject(store, cfg, 'other');
    expect(r!.ok).toBe(false);
    expect(r!.error).toMatch(/auth/i);
    expect(JSON.stringify(r)).not.toContain('wrong-Pa55word');
    expect(JSON.stringify(r)).not.toContain(CREDENTIALS.password);
    const settings = (await sql.values('SELECT settings FROM components')).join('\n');
    expect(settings).not.toContain(CREDENTIALS.password);
    expect(settings).not.toContain('wrong-Pa55word');
    const gitConfig = readFileSync(path.join(env.root, 'repos', 'hello', 'glossary', '.git', 'config'), 'utf8');
    expect(gitConfig).not.toContain(CREDENTIALS.password);

    const file = path.join(env.root, 'cli.config.json');
    writeFileSync(
      file,
      JSON.stringify({ database: 'tms.sqlite', repos_dir: 'repos', projects: [{ name: 'Other', slug: 'other', components: [glossaryComponent(bad)] }] }),
    );
    const cli = await runCli(['sync', 'other', '--config', file]);
    expect(cli.code).toBe(1);
    const printed = [...cli.stdout, ...cli.stderr].join('\n');
    expect(printed).toMatch(/other\/glossary: FAILED/);
    expect(printed).not.toContain('wrong-Pa55word');
  });
});

describe('sync from a local-path upstream', () => {
  let env: SyncEnv;
  const createUpstreamCopy = (name: string) => env.addUpstream(name, { fixture: path.join(DEMO, 'glossary'), into: 'glossary' });
  beforeAll(async () => {
    env = await createSyncEnv();
    await env.addUpstream('glossary', { fixture: path.join(DEMO, 'glossary'), into: 'glossary' });
  });
  afterAll(() => env.close());

  it('clones a bare repository by path and a file:// URL, and `tms sync` prints a summary per component', async () => {
    const cfg = env.config([
      {
        name: 'Hello',
        slug: 'hello',
        components: [glossaryComponent(env.upstream('glossary')), glossaryComponent(`file://${env.upstream('glossary')}`, { slug: 'glossary2' })],
      },
    ]);
    writeFileSync(
      cfg.file,
      JSON.stringify({
        database: 'tms.sqlite',
        repos_dir: 'repos',
        projects: [
          {
            name: 'Hello',
            slug: 'hello',
            components: [glossaryComponent(env.upstream('glossary')), glossaryComponent(`file://${env.upstream('glossary')}`, { slug: 'glossary2' })],
          },
        ],
      }),
    );
    const r = await runCli(['sync', 'hello', '--config', cfg.file]);
    expect(r.stderr).toEqual([]);
    expect(r.code).toBe(0);
    const summaries = r.stdout.filter((l) => /^hello\/glossary2?: \d/.test(l));
    expect(summaries).toHaveLength(2);
    expect(summaries[0]).toMatch(/^hello\/glossary: 2 files \(2 parsed\), units \+6 ~0 -0, 0 errors, \d+\.\d\d s$/);
    expect(readdirSync(path.join(env.root, 'repos', 'hello'))).toEqual(['glossary', 'glossary2']);

    const again = await runCli(['sync', 'hello', '--config', cfg.file]);
    expect(again.stdout.filter((l) => /^hello\/glossary: \d/.test(l))[0]).toMatch(/2 files \(0 parsed\), units \+0 ~0 -0/);
  });

  it('follows the remote default branch when no branch is configured', async () => {
    const { createUpstream } = await import('../helpers/git-repo.js');
    await createUpstream({ dir: env.upstream('trunk'), branch: 'trunk', fixture: path.join(DEMO, 'glossary'), into: 'glossary' });
    const cfg = env.config([{ name: 'T', slug: 'trunk', components: [glossaryComponent(env.upstream('trunk'), { branch: '' })] }]);
    const store = await env.openStore();
    const sql = sqlOn(store);
    const [r] = await syncProject(store, cfg, 'trunk');
    expect(r!.error).toBeUndefined();
    expect(r!.files.map((f) => f.status)).toEqual(['parsed', 'parsed']);
    await commitToUpstream(
      env.upstream('trunk'),
      { 'glossary/de.tbx': demoFile('glossary/de.tbx').replace('<term>Ordner</term>', '<term>Mappe</term>') },
      { branch: 'trunk' },
    );
    const [again] = await syncProject(store, cfg, 'trunk');
    expect(again!.update).toBe('fast-forward');
    expect((await unitsOf(sql, 'trunk', 'glossary', 'de')).map((u) => u.target)).toContain('Mappe');
  });

  it('skips a second file of one language with a DuplicateLanguage alert, cleared when it goes', async () => {
    const { componentAlerts } = await import('../../src/store/alerts.repo.js');
    const { findComponent } = await import('../../src/store/projects.repo.js');
    await createUpstreamCopy('dups');
    await commitToUpstream(env.upstream('dups'), { 'glossary/en.tbx': demoFile('glossary/de.tbx'), 'glossary/de_DE.tbx': demoFile('glossary/de.tbx') });
    const store = await env.openStore();
    const sql = sqlOn(store);
    const cfg = env.config([{ name: 'D', slug: 'dups', components: [glossaryComponent(env.upstream('dups'))] }]);
    const [r] = await syncProject(store, cfg, 'dups');
    expect(r!.ok).toBe(true);
    expect(r!.files.map((f) => f.path)).toEqual(['glossary/cs.tbx', 'glossary/de.tbx']);
    expect(r!.skipped).toEqual([
      { path: 'glossary/de_DE.tbx', reason: 'duplicate language de (already glossary/de.tbx)' },
      { path: 'glossary/en.tbx', reason: 'duplicate language en (already (the source language))' },
    ]);
    const id = (await store.read((tx) => findComponent(tx, 'dups', 'glossary')))!.id;
    const [alert] = await store.read((tx) => componentAlerts(tx, id));
    expect(alert!.name).toBe('DuplicateLanguage');
    expect(JSON.parse(alert!.details).files.map((f: { path: string }) => f.path)).toEqual(['glossary/de_DE.tbx', 'glossary/en.tbx']);

    await commitToUpstream(env.upstream('dups'), { 'glossary/en.tbx': null, 'glossary/de_DE.tbx': null });
    await syncProject(store, cfg, 'dups');
    expect(await store.read((tx) => componentAlerts(tx, id))).toEqual([]);
  });

  it('reads every file again when the component settings change, without an upstream change', async () => {
    const store = await env.openStore();
    const sql = sqlOn(store);
    const only = env.config([{ name: 'R', slug: 'regex', components: [glossaryComponent(env.upstream('glossary'), { language_regex: '^de$' })] }]);
    const [first] = await syncProject(store, only, 'regex');
    expect(first!.files.map((f) => f.language)).toEqual(['de']);
    const all = env.config([{ name: 'R', slug: 'regex', components: [glossaryComponent(env.upstream('glossary'))] }]);
    const [second] = await syncProject(store, all, 'regex');
    expect(second!.files.map((f) => [f.language, f.status])).toEqual([
      ['cs', 'parsed'],
      ['de', 'parsed'],
    ]);
    expect(second!.added).toBe(3);
    const [third] = await syncProject(store, all, 'regex');
    expect(third!.parsed).toBe(0);
  });

  it('fails one component without stopping the others, and exits 1', async () => {
    const file = path.join(env.root, 'two.config.json');
    writeFileSync(
      file,
      JSON.stringify({
        database: 'two.sqlite',
        repos_dir: 'repos2',
        projects: [
          {
            name: 'Hello',
            slug: 'hello',
            components: [glossaryComponent(path.join(env.root, 'missing.git'), { slug: 'broken' }), glossaryComponent(env.upstream('glossary'))],
          },
        ],
      }),
    );
    const r = await runCli(['sync', 'hello', '--config', file]);
    expect(r.code).toBe(1);
    expect(r.stdout.some((l) => l.startsWith('hello/broken: FAILED: '))).toBe(true);
    expect(r.stdout.some((l) => /^hello\/glossary: 2 files \(2 parsed\)/.test(l))).toBe(true);
    expect(r.stderr.filter((l) => l.startsWith('tms: hello/broken: '))).toHaveLength(1);
  });
});
