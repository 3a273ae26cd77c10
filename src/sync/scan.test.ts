import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rejectedWith } from '../../test/helpers/errors.js';
import { parseConfig } from '../config/config.js';
import { FileMaskError, expandFileMask, planFiles } from './scan.js';

function tree(): { root: string; repo: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'tms-scan-'));
  const repo = path.join(root, 'repo');
  mkdirSync(path.join(repo, 'po'), { recursive: true });
  writeFileSync(path.join(repo, 'po', 'de.po'), '');
  writeFileSync(path.join(repo, 'po', '.hidden.po'), '');
  writeFileSync(path.join(root, 'secret.po'), 'outside');
  return { root, repo };
}

describe('expandFileMask', () => {
  it('lists matching files inside the working copy, without dotfiles; a link to a listed file is that file, listed once', async () => {
    const { repo } = tree();
    writeFileSync(path.join(repo, 'po', 'fr.po'), '');
    symlinkSync(path.join(repo, 'po', 'de.po'), path.join(repo, 'po', 'de_AT.po'));
    const { paths, refused } = await expandFileMask(repo, 'po/*.po');
    expect(paths.sort()).toEqual(['po/de.po', 'po/fr.po']);
    expect(refused).toEqual([]);
  });

  it('refuses, alone, a link to a file the mask does not list (its edits would be written over the link)', async () => {
    const { repo } = tree();
    mkdirSync(path.join(repo, 'extra'));
    writeFileSync(path.join(repo, 'extra', 'fr.po'), '');
    symlinkSync(path.join(repo, 'extra', 'fr.po'), path.join(repo, 'po', 'fr.po'));
    const { paths, refused } = await expandFileMask(repo, 'po/*.po');
    expect(paths).toEqual(['po/de.po']);
    expect(refused).toEqual([{ path: 'po/fr.po', reason: 'a symbolic link (to extra/fr.po): tms reads and writes the files themselves' }]);
  });

  it('refuses, alone, names that are not valid UTF-8 or hold control characters', async () => {
    const { repo } = tree();
    writeFileSync(Buffer.concat([Buffer.from(path.join(repo, 'po') + path.sep), Buffer.from([0xff, 0xfe]), Buffer.from('.po')]), '');
    writeFileSync(path.join(repo, 'po', 'x\ny.po'), '');
    const { paths, refused } = await expandFileMask(repo, 'po/*.po');
    expect(paths).toEqual(['po/de.po']);
    expect(refused.map((r) => r.reason).sort()).toEqual([
      'its name holds a control character (a line break, a tab …)',
      'its name is not valid UTF-8 (tms would not write it back under the same name)',
    ]);
  });

  it('refuses, alone, a directory matching the mask, as a submodule is checked out (found by campaign:hostile-repos)', async () => {
    const { repo } = tree();
    mkdirSync(path.join(repo, 'po', 'sub.po'));
    mkdirSync(path.join(repo, 'po', 'nested'));
    writeFileSync(path.join(repo, 'po', 'nested', 'x.po'), '');
    const { paths, refused } = await expandFileMask(repo, 'po/*.po');
    expect(paths).toEqual(['po/de.po']);
    expect(refused).toEqual([{ path: 'po/sub.po', reason: 'a directory, not a file (a git submodule?)' }]);
    // a mask with a folder per language still lists the files inside, and reports nothing
    mkdirSync(path.join(repo, 'locales', 'de'), { recursive: true });
    writeFileSync(path.join(repo, 'locales', 'de', 'app.json'), '{}');
    expect(await expandFileMask(repo, 'locales/*/app.json')).toEqual({ paths: ['locales/de/app.json'], refused: [] });
  });

  it('refuses masks that leave the repository', async () => {
    const { repo } = tree();
    await expect(expandFileMask(repo, '../*.po')).rejects.toBeInstanceOf(FileMaskError);
    expect((await rejectedWith(FileMaskError, expandFileMask(repo, '/etc/*.conf'))).data.filemask).toBe('/etc/*.conf');
  });

  it('refuses, alone, a symbolic link that points outside the repository (the other files still load)', async () => {
    const { root, repo } = tree();
    symlinkSync(path.join(root, 'secret.po'), path.join(repo, 'po', 'fr.po'));
    const { paths, refused } = await expandFileMask(repo, 'po/*.po');
    expect(paths).toEqual(['po/de.po']);
    expect(refused).toEqual([{ path: 'po/fr.po', reason: 'a symbolic link that points outside the repository (or nowhere)' }]);
  });
});

describe('planFiles: language codes of Android and Apple folders', () => {
  const config = (filemask: string, template: string, fileFormat: string) =>
    parseConfig(
      JSON.stringify({
        projects: [{ name: 'P', slug: 'p', components: [{ name: 'C', slug: 'c', repo: '/r', filemask, template, file_format: fileFormat }] }],
      }),
      'tms.config.json',
    ).projects[0]!;

  it('reads values-<qualifier> folders as Weblate does: -r regions, b+ tags, legacy codes', () => {
    const project = config('res/values-*/strings.xml', 'res/values/strings.xml', 'aresource');
    const paths = [
      'res/values/strings.xml',
      ...['pt-rBR', 'b+sr+Latn', 'b+uz+Latn', 'b+ast', 'zh-rCN', 'zh-rHK', 'ar-rLY', 'iw', 'in', 'und'].map((q) => `res/values-${q}/strings.xml`),
    ];
    const plan = planFiles(paths, project.components[0]!, project, new Map());
    expect(plan.files.map((f) => [f.code, f.language.code])).toEqual([
      ['en', 'en'],
      ['ar-rLY', 'ar_LY'],
      ['b+ast', 'ast'],
      ['b+sr+Latn', 'sr_Latn'],
      ['b+uz+Latn', 'uz_Latn'],
      ['in', 'id'],
      ['iw', 'he'],
      ['pt-rBR', 'pt_BR'],
      ['und', 'und'],
      ['zh-rCN', 'zh_Hans'],
      ['zh-rHK', 'zh_Hant_HK'],
    ]);
  });

  it('reads <lang>.lproj folders: script codes, regions, Base as the source language and en.lproj then a duplicate of it', () => {
    const project = config('Resources/*.lproj/Localizable.strings', 'Resources/Base.lproj/Localizable.strings', 'strings-utf8');
    const paths = ['Base', 'en', 'zh-Hans', 'zh-Hant', 'pt_BR', 'pt-PT', 'hy-AM'].map((c) => `Resources/${c}.lproj/Localizable.strings`);
    const plan = planFiles(paths, project.components[0]!, project, new Map());
    expect(plan.files.map((f) => [f.code, f.language.code])).toEqual([
      ['en', 'en'],
      ['hy-AM', 'hy'],
      ['pt-PT', 'pt_PT'],
      ['pt_BR', 'pt_BR'],
      ['zh-Hans', 'zh_Hans'],
      ['zh-Hant', 'zh_Hant'],
    ]);
    expect(plan.duplicates).toEqual([{ path: 'Resources/en.lproj/Localizable.strings', language: 'en', other: 'Resources/Base.lproj/Localizable.strings' }]);
  });
});
