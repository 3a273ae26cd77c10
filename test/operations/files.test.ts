// Downloads: pending edits applied in memory without a commit; component and project ZIPs checked with Python's zipfile.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openComponent } from '../../src/component/handle.js';
import { NotFoundError } from '../../src/domain/errors.js';
import { State } from '../../src/domain/unit.js';
import { deleteUnit, downloadComponentZip, downloadProjectZip, downloadTranslation, editUnit, zipStore } from '../../src/operations/index.js';
import { type RepoEnv, createRepoEnv } from './repo-env.js';

const decoder = new TextDecoder();

/** Runs Python's zipfile CLI on `bytes`: `-l` lists, `-t` tests every CRC, `-e` extracts (returns the folder). */
function pythonZip(bytes: Uint8Array, run: (file: string, dir: string) => void): void {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tms-zip-'));
  try {
    const file = path.join(dir, 'archive.zip');
    writeFileSync(file, bytes);
    run(file, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The member names of a ZIP as Python's zipfile reads them, after it verified every CRC. */
function zipNames(bytes: Uint8Array): string[] {
  let names: string[] = [];
  pythonZip(bytes, (file) => {
    const tested = execFileSync('python3', ['-m', 'zipfile', '-t', file], { encoding: 'utf8' });
    expect(tested).toContain('Done testing');
    const script = 'import sys, zipfile\nfor n in zipfile.ZipFile(sys.argv[1]).namelist(): print(n)';
    names = execFileSync('python3', ['-c', script, file], { encoding: 'utf8' }).split('\n').filter(Boolean);
  });
  return names;
}

describe('zipStore', () => {
  it('writes archives Python reads back byte for byte: UTF-8 names, empty and binary members, an empty archive', async () => {
    const binary = new Uint8Array(256).map((_, i) => i);
    const entries = [
      { name: 'po/de.po', bytes: new TextEncoder().encode('msgid "a"\nmsgstr "ä"\n') },
      { name: 'übersetzung/leer.txt', bytes: new Uint8Array(0) },
      { name: 'bin/all-bytes', bytes: binary },
    ];
    expect(zipNames(zipStore(entries))).toEqual(entries.map((e) => e.name));
    pythonZip(zipStore(entries), (file, dir) => {
      execFileSync('python3', ['-m', 'zipfile', '-e', file, path.join(dir, 'out')]);
      for (const e of entries) expect(new Uint8Array(readFileSync(path.join(dir, 'out', e.name)))).toEqual(e.bytes);
    });
    expect(zipNames(zipStore([]))).toEqual([]);
  });
});

describe('downloads', () => {
  let r: RepoEnv;
  beforeAll(async () => {
    r = await createRepoEnv({ components: { app: { manage_units: true } } });
  });
  afterAll(() => r.close());

  it('a file without pending edits is the file as committed, named <project>-<component>-<language><ext>', async () => {
    const file = await downloadTranslation(await openComponent(r.store, r.config, r.project, r.component('web')), 'en');
    expect(decoder.decode(file.bytes)).toBe(await r.upstreamFile('web', 'locales/en.json'));
    expect(file).toMatchObject({ filename: 'hello-web-en.json', mimeType: 'application/json' });
    const tbx = await downloadTranslation(await openComponent(r.store, r.config, r.project, r.component('glossary')), 'cs');
    expect(tbx.filename).toBe('hello-glossary-cs.tbx');
  });

  it('includes pending edits and removals, applied in memory: no commit, the working copy untouched, edits still pending', async () => {
    const app = r.component('app');
    const head = await r.workGit('app', ['rev-parse', 'HEAD']);
    const quit = await r.unit('app', 'de', 'Quit');
    await editUnit(r.store, { unitId: quit.id, target: ['Beenden'], state: State.TRANSLATED, user: r.alice });
    await deleteUnit(await openComponent(r.store, r.config, r.project, app), (await r.unit('app', 'de', 'About')).id, r.alice);

    const file = await downloadTranslation(await openComponent(r.store, r.config, r.project, app), 'de');
    const text = decoder.decode(file.bytes);
    expect(text).toMatch(/<source>Quit<\/source>\s*<translation>Beenden<\/translation>/);
    expect(text).not.toContain('About %1');
    expect(text).toContain('<source>&amp;File</source>');
    expect(file.filename).toBe('hello-app-de.ts');
    const lastChange = (await r.sql.value(`SELECT s.last_change FROM translation_stats s JOIN translations t ON t.id = s.translation_id
       JOIN components c ON c.id = t.component_id WHERE c.slug = 'app' AND t.language_code = 'de'`)) as string;
    expect(file.lastModified.toISOString()).toBe(lastChange);

    expect(await r.workGit('app', ['rev-parse', 'HEAD'])).toBe(head);
    expect(await r.workGit('app', ['status', '--porcelain'])).toBe('');
    expect(await r.workGit('app', ['show', 'HEAD:translations/app_de.ts'])).toContain('About %1');
    expect(await r.unit('app', 'de', 'Quit')).toMatchObject({ target: 'Beenden', pending: 1 });
    // the other translation has no pending edit of its own: as committed
    const cs = await downloadTranslation(await openComponent(r.store, r.config, r.project, app), 'cs');
    expect(decoder.decode(cs.bytes)).not.toContain('About %1');
  });

  it('the source translation of a bilingual component has no file; an unknown language is not found', async () => {
    await expect(downloadTranslation(await openComponent(r.store, r.config, r.project, r.component('app')), 'en')).rejects.toBeInstanceOf(NotFoundError);
    await expect(downloadTranslation(await openComponent(r.store, r.config, r.project, r.component('app')), 'fr')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('the component ZIP lists every translation file with pending edits applied; the project ZIP every component', async () => {
    const zip = await downloadComponentZip(await openComponent(r.store, r.config, r.project, r.component('app')));
    expect(zip).toMatchObject({ filename: 'hello-app.zip', mimeType: 'application/zip' });
    expect(zipNames(zip.bytes)).toEqual(['translations/app_cs.ts', 'translations/app_de.ts']);
    pythonZip(zip.bytes, (file, dir) => {
      execFileSync('python3', ['-m', 'zipfile', '-e', file, path.join(dir, 'out')]);
      const de = readFileSync(path.join(dir, 'out', 'translations/app_de.ts'), 'utf8');
      expect(de).toMatch(/<source>Quit<\/source>\s*<translation>Beenden<\/translation>/);
    });
    const web = await downloadComponentZip(await openComponent(r.store, r.config, r.project, r.component('web')));
    expect(zipNames(web.bytes)).toEqual(['locales/cs.json', 'locales/de.json', 'locales/en.json']);

    const project = await downloadProjectZip(r.store, r.config, r.project);
    expect(project.filename).toBe('hello.zip');
    expect(zipNames(project.bytes)).toEqual([
      'app/translations/app_cs.ts',
      'app/translations/app_de.ts',
      'glossary/glossary/cs.tbx',
      'glossary/glossary/de.tbx',
      'web/locales/cs.json',
      'web/locales/de.json',
      'web/locales/en.json',
    ]);
    expect(await r.workGit('app', ['status', '--porcelain'])).toBe('');
  });
});
