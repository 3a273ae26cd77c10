// `tms memory import|export` through the real CLI in a child process, against a synced store.
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTmx } from '../../src/formats/memory/tmx.js';
import { lookupMemory } from '../../src/store/memory.repo.js';
import { findProjectBySlug } from '../../src/store/projects.repo.js';
import { findUserByUsername } from '../../src/store/users.repo.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { repoRoot } from '../helpers/corpus.js';
import { sqlOn } from '../helpers/store.js';

const ENTRY = path.join(repoRoot, 'test', 'watch', 'cli-entry.ts');

function tms(env: WriteEnv, args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', ENTRY, '--config', path.join(env.root, 'tms.config.json'), ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
}

const TMX = `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4">
  <header creationtool="hand" creationtoolversion="1" datatype="plaintext" segtype="sentence" adminlang="en" srclang="en" o-tmf="hand"/>
  <body>
    <tu><tuv xml:lang="en"><seg>Print the document</seg></tuv><tuv xml:lang="de-DE"><seg>Das Dokument drucken</seg></tuv></tu>
    <tu><tuv xml:lang="en"><seg>Close the window</seg></tuv><tuv xml:lang="de"><seg>Das Fenster schließen</seg></tuv>
      <tuv xml:lang="cs"><seg>Zavřít okno</seg></tuv></tu>
    <tu><tuv xml:lang="en"><seg>Nowhere</seg></tuv><tuv xml:lang="zz-unknown"><seg>x</seg></tuv></tu>
  </body>
</tmx>
`;

describe('tms memory import / export', () => {
  let env: WriteEnv;
  let en: number;
  let de: number;
  beforeAll(async () => {
    env = await createWriteEnv();
    en = (await sqlOn(env.store).value("SELECT id FROM languages WHERE code = 'en'")) as number;
    de = (await sqlOn(env.store).value("SELECT id FROM languages WHERE code = 'de'")) as number;
  }, 120_000);
  afterAll(async () => {
    await env?.close();
  });
  const lookup = (text: string, userId: number | null = null, projects: number[] | null = null) =>
    env.store.read((tx) => lookupMemory(tx, text, en, de, { projects, userId }));

  it('imports TMX into a project: languages matched, unknown ones skipped, the file name as origin, duplicates skipped again', async () => {
    const file = path.join(env.root, 'office.tmx');
    await writeFile(file, TMX);
    const r = tms(env, ['memory', 'import', file, '--project', 'hello']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('imported 3 entries into the memory of project hello from office.tmx (tmx); 1 skipped');
    const project = (await env.store.read((tx) => findProjectBySlug(tx, 'hello')))!.id;
    const [match] = await lookup('Print the documents', null, [project]);
    expect(match).toMatchObject({ target: 'Das Dokument drucken', origin: 'office.tmx', project_id: project, similarity: 94 });
    expect(await lookup('Print the document', null, [])).toEqual([]);
    expect(r.stdout).toContain('1 skipped: 1 in a language this instance does not know (zz-unknown)');
    const again = tms(env, ['memory', 'import', file, '--project', 'hello']);
    expect(again.stdout).toContain('imported 0 entries');
    expect(again.stdout).toContain('4 skipped: 3 already in the memory, 1 in a language this instance does not know (zz-unknown)');
  }, 60_000);

  it('imports a file of many batches in pieces, counting what it skips by reason; a file broken half-way keeps what came before', async () => {
    // 12,000 units (three batches), then units that give nothing: repeated, unknown languages, one language to itself
    const units: string[] = [];
    for (let i = 0; i < 12_000; i++) {
      units.push(
        `<tu tuid="${i}" creationid="bench"><tuv xml:lang="en"><seg>Stream unit ${i}</seg></tuv><tuv xml:lang="cs"><seg>Jednotka ${i} ✓</seg></tuv></tu>`,
      );
    }
    units.push('<tu><tuv xml:lang="en"><seg>Stream unit 7</seg></tuv><tuv xml:lang="cs"><seg>Jednotka 7 ✓</seg></tuv></tu>');
    units.push(
      '<tu><tuv xml:lang="en"><seg>Elvish</seg></tuv><tuv xml:lang="x-elvish"><seg>Quenya</seg></tuv><tuv xml:lang="x-klingon"><seg>tlhIngan</seg></tuv></tu>',
    );
    units.push('<tu><tuv xml:lang="en"><seg>Nothing</seg></tuv><tuv xml:lang="EN"><seg>NOTHING</seg></tuv></tu>');
    const body = (list: string[]) =>
      `<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n<header srclang="en"/>\n<body>\n${list.join('\n')}\n</body>\n</tmx>\n`;
    const file = path.join(env.root, 'stream.tmx');
    await writeFile(file, body(units));
    const r = tms(env, ['memory', 'import', file, '--user', 'jane']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual([
      'imported 12000 entries into the personal memory of jane from stream.tmx (tmx); 4 skipped: 1 already in the memory, ' +
        '2 in a language this instance does not know (x-elvish, x-klingon), 1 from a language to itself',
    ]);
    const empty = path.join(env.root, 'empty.json');
    await writeFile(empty, JSON.stringify([{ source: 'Blank', target: '', source_language: 'en', target_language: 'cs' }]));
    expect(tms(env, ['memory', 'import', empty, '--user', 'jane']).stdout).toContain('1 skipped: 1 with an empty source or translation');
    const jane = (await env.store.read((tx) => findUserByUsername(tx, 'jane')))!.id;
    const count = async () => (await sqlOn(env.store).value('SELECT count(*) FROM memory WHERE user_id = ?', jane)) as number;
    expect(await count()).toBe(12_000);
    const cs = (await sqlOn(env.store).value("SELECT id FROM languages WHERE code = 'cs'")) as number;
    const [hit] = await env.store.read((tx) => lookupMemory(tx, 'Stream unit 11999', en, cs, { projects: [], userId: jane }));
    expect(hit).toMatchObject({ target: 'Jednotka 11999 ✓', origin: 'stream.tmx', similarity: 100 });

    // broken after 11,000 units: the two batches before the error stay, and the error says so
    const broken = path.join(env.root, 'half.tmx');
    const half = units.slice(0, 11_000).map((u) => u.replace(/Stream unit/g, 'Half unit'));
    half.push('<tu><tuv xml:lang="en"><seg>Broken</sag></tuv></tu>');
    await writeFile(broken, body(half));
    const bad = tms(env, ['memory', 'import', broken, '--user', 'jane']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^tms: half\.tmx:11005:\d+: mismatched end tag: expected <\/seg>, found <\/sag> \(the 10000 entries before it were imported; /);
    expect(await count()).toBe(22_000);
  }, 120_000);

  it('imports a Weblate JSON dump into the shared memory (default) or a user; refuses bad input with one line', async () => {
    const file = path.join(env.root, 'dump.json');
    await writeFile(
      file,
      JSON.stringify([
        { source: 'Reload the page', target: 'Die Seite neu laden', source_language: 'en', target_language: 'de', origin: 'weblate', category: 2 },
      ]),
    );
    const shared = tms(env, ['memory', 'import', file]);
    expect(shared.status).toBe(0);
    expect(shared.stdout).toContain('imported 1 entries into the shared memory');
    expect((await lookup('Reload the page'))[0]).toMatchObject({ target: 'Die Seite neu laden', origin: 'weblate' });
    const personal = tms(env, ['memory', 'import', file, '--user', 'jane']);
    expect(personal.stdout).toContain('the personal memory of jane');

    const broken = path.join(env.root, 'broken.tmx');
    await writeFile(broken, '<tmx><body><tu></body></tmx>');
    const bad = tms(env, ['memory', 'import', broken]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^tms: broken\.tmx:\d+:\d+: /);
    expect(bad.stderr).not.toContain('    at ');
    const missing = tms(env, ['memory', 'import', path.join(env.root, 'missing.tmx')]);
    expect(missing.status).toBe(1);
    // the reason in words, not an errno code alone
    expect(missing.stderr).toBe(`tms: cannot read "${path.join(env.root, 'missing.tmx')}": no such file or folder (ENOENT)\n`);
    expect(tms(env, ['memory', 'import', env.root]).stderr).toBe(`tms: cannot read "${env.root}": a folder, not a file (EISDIR)\n`);
    expect(tms(env, ['memory', 'import', file, '--project', 'nope']).stderr).toContain('project "nope" not found');
    expect(tms(env, ['memory', 'import', file, '--format', 'po']).status).toBe(2);
    const notJson = path.join(env.root, 'list.json');
    await writeFile(notJson, '{"source": 1}');
    const wrongShape = tms(env, ['memory', 'import', notJson]);
    expect(wrongShape.status).toBe(1);
    expect(wrongShape.stderr).toContain('a JSON memory file is a list of entries');
  }, 60_000);

  it("exports every record as Weblate JSON (the strings' translations and imported entries) and a project's as TMX, which imports back", async () => {
    const all = path.join(env.root, 'all.json');
    const r = tms(env, ['memory', 'export', all]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const dump = JSON.parse(await readFile(all, 'utf8')) as Record<string, unknown>[];
    expect(r.stdout).toContain(`exported ${dump.length} entries`);
    expect(Object.keys(dump[0]!)).toEqual(['source', 'target', 'source_language', 'target_language', 'origin', 'category']);
    const project = (await env.store.read((tx) => findProjectBySlug(tx, 'hello')))!.id;
    expect(dump).toContainEqual({
      source: 'Open a file',
      target: 'Eine Datei öffnen',
      source_language: 'en',
      target_language: 'de',
      origin: 'hello/app',
      category: 10000000 + project,
    });
    expect(dump).toContainEqual(expect.objectContaining({ source: 'Reload the page', origin: 'weblate', category: 2 }));
    expect(dump).toContainEqual(expect.objectContaining({ source: 'Close the window', target: 'Zavřít okno', target_language: 'cs' }));
    // as many as /api/memory/ lists
    expect((await env.request('GET', '/api/memory/', { token: env.tokens.admin })).json.count).toBe(dump.length);

    const tmx = path.join(env.root, 'hello.xml');
    const p = tms(env, ['memory', 'export', tmx, '--project', 'hello', '--format', 'tmx']);
    expect(p.status).toBe(0);
    const entries = parseTmx(await readFile(tmx), 'hello.xml');
    expect(entries).toContainEqual({ source: 'Open a file', target: 'Eine Datei öffnen', sourceLanguage: 'en', targetLanguage: 'de' });
    expect(entries.some((e) => e.source === 'Reload the page')).toBe(false);
    expect(entries.some((e) => e.source === 'Print the document')).toBe(true);
    // what a project exports imports into a user's memory as it was
    const back = tms(env, ['memory', 'import', tmx, '--user', 'mike']);
    expect(back.status).toBe(0);
    const mike = (await env.store.read((tx) => findUserByUsername(tx, 'mike')))!.id;
    const own = (await lookup('Open a file', mike, [])).map((m) => m.target);
    expect(own).toEqual(['Eine Datei öffnen']);
    expect(tms(env, ['memory', 'export', path.join(env.root, 'x.po')]).status).toBe(2);
    const nowhere = tms(env, ['memory', 'export', path.join(env.root, 'no', 'such', 'dir.json')]);
    expect(nowhere.status).toBe(1);
    expect(nowhere.stderr).toBe(`tms: cannot write "${path.join(env.root, 'no', 'such', 'dir.json')}": no such file or folder (ENOENT)\n`);
  }, 60_000);
});
