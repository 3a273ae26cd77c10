import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rejectedWith } from '../../test/helpers/errors.js';
import { FileMaskError, expandFileMask } from './scan.js';

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
