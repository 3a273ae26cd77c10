// A glossary whose entries are all in other languages than the component's (a single-file TBX read as the language
// its name gives) is said by `tms sync`, with the file's languages, instead of syncing as an empty glossary in silence.
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { describeCorpus } from '../helpers/corpus.js';
import { createUpstream, tempDir } from '../helpers/git-repo.js';

describeCorpus('tms sync: a glossary in other languages', (corpus) => {
  let root: string;
  let configFile: string;

  beforeAll(async () => {
    root = await tempDir('tms-glossary-languages-');
    const upstream = path.join(root, 'glossary.git');
    await createUpstream({
      dir: upstream,
      files: {
        // KDE's Simplified Chinese glossary (en-US → zh-CN) in one file whose name is no language
        'terms.tbx': readFileSync(path.join(corpus, 'pan93412-kde-cn', 'terms.tbx'), 'utf8'),
        'glossary/de.tbx': readFileSync(path.join(corpus, 'Slicer-SlicerLanguageTranslations', 'glossary', 'de.tbx'), 'utf8'),
      },
    });
    configFile = path.join(root, 'tms.config.json');
    const component = (slug: string, filemask: string) => ({ name: slug, slug, repo: upstream, branch: 'main', filemask, file_format: 'tbx' });
    await writeFile(
      configFile,
      JSON.stringify({
        database: 'tms.sqlite',
        repos_dir: 'repos',
        projects: [{ name: 'Terms', slug: 'terms', components: [component('kde', '*.tbx'), component('slicer', 'glossary/*.tbx')] }],
      }),
    );
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('warns with the file, its line and languages where no entry has a term in the source or the file’s language', async () => {
    const r = await runCli(['--config', configFile, 'sync', 'terms', '--threads', '1']);
    expect(r.code, r.stderr.join('\n')).toBe(0);
    const kde = r.stdout.find((l) => l.startsWith('terms/kde: ') && l.includes(' files '));
    expect(kde).toContain('units +0');
    expect(kde).toMatch(
      /warning: terms\.tbx:\d+: skipped: none of its 137 entries has a term in en \(the source language\) or terms \(the language its name gives\); the file has en-US, zh-CN/,
    );
    // a glossary in its own languages syncs as before, without a warning
    const slicer = r.stdout.find((l) => l.startsWith('terms/slicer: ') && l.includes(' files '));
    expect(slicer).toContain('units +147');
    expect(slicer).not.toContain('warning');
  });
});
