import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
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
  it('lists matching files inside the working copy, without dotfiles; a link to a listed file is dropped', async () => {
    const { repo } = tree();
    mkdirSync(path.join(repo, 'extra'));
    writeFileSync(path.join(repo, 'extra', 'fr.po'), '');
    symlinkSync(path.join(repo, 'po', 'de.po'), path.join(repo, 'po', 'de_AT.po'));
    symlinkSync(path.join(repo, 'extra', 'fr.po'), path.join(repo, 'po', 'fr.po'));
    expect((await expandFileMask(repo, 'po/*.po')).sort()).toEqual(['po/de.po', 'po/fr.po']);
  });

  it('refuses masks that leave the repository', async () => {
    const { repo } = tree();
    await expect(expandFileMask(repo, '../*.po')).rejects.toBeInstanceOf(FileMaskError);
    await expect(expandFileMask(repo, '/etc/*.conf')).rejects.toThrow(/must stay inside the repository/);
  });

  it('refuses a symbolic link that points outside the repository', async () => {
    const { root, repo } = tree();
    symlinkSync(path.join(root, 'secret.po'), path.join(repo, 'po', 'fr.po'));
    await expect(expandFileMask(repo, 'po/*.po')).rejects.toThrow('po/fr.po: symbolic link points outside the repository');
  });
});
