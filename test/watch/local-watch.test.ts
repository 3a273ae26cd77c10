import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Config, parseConfig } from '../../src/config/config.js';
import { watchLocalComponents } from '../../src/watch/local-watch.js';
import { commitToUpstream, createUpstream, tempDir } from '../helpers/git-repo.js';
import { DEMO, demoFile } from '../helpers/sync-env.js';
import { sleep, waitFor } from '../helpers/wait.js';

let root: string;
let config: Config;

beforeAll(async () => {
  root = await tempDir('tms-local-watch-');
  await createUpstream({ dir: path.join(root, 'upstream', 'bare.git'), fixture: path.join(DEMO, 'app') });
  await createUpstream({ dir: path.join(root, 'upstream', 'worktree'), fixture: path.join(DEMO, 'app'), bare: false });
  config = parseConfig(
    JSON.stringify({
      repos_dir: 'repos',
      projects: [
        {
          name: 'Hello',
          slug: 'hello',
          components: [
            { name: 'Local', slug: 'local', vcs: 'local', filemask: 'translations/app_*.ts', file_format: 'ts' },
            { name: 'Bare', slug: 'bare', repo: 'upstream/bare.git', branch: 'main', filemask: 'translations/app_*.ts', file_format: 'ts' },
            {
              name: 'Tree',
              slug: 'tree',
              repo: `file://${path.join(root, 'upstream', 'worktree')}`,
              branch: 'main',
              filemask: 'translations/app_*.ts',
              file_format: 'ts',
            },
            { name: 'Remote', slug: 'remote', repo: 'https://example.org/hello.git', branch: 'main', filemask: 'translations/app_*.ts', file_format: 'ts' },
          ],
        },
      ],
    }),
    path.join(root, 'tms.config.json'),
  );
  const wc = path.join(root, 'repos', 'hello', 'local');
  mkdirSync(wc, { recursive: true });
  cpSync(path.join(DEMO, 'app'), wc, { recursive: true });
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('watchLocalComponents', () => {
  it('watches local working copies and local repositories, not remote ones', async () => {
    const w = watchLocalComponents(config, () => {});
    await w.ready;
    expect(w.watched.map((t) => t.key.component)).toEqual(['local', 'bare', 'tree']);
    expect(w.watched[1]!.what).toBe(`repository ${path.join(root, 'upstream', 'bare.git')}`);
    await w.close();
    const only = watchLocalComponents(config, () => {}, { include: (_p, c) => c === 'tree' });
    expect(only.watched.map((t) => t.key.component)).toEqual(['tree']);
    await only.close();
  });

  it('turns a burst of edits of translation files into one call, and ignores other files', async () => {
    const calls: string[] = [];
    const w = watchLocalComponents(config, (p, c) => calls.push(`${p}/${c}`), { debounceMs: 150, include: (_p, c) => c === 'local' });
    await w.ready;
    const de = path.join(root, 'repos', 'hello', 'local', 'translations', 'app_de.ts');
    for (let i = 0; i < 5; i++) writeFileSync(de, demoFile('app/translations/app_de.ts').replace('Eine Datei öffnen', `Datei öffnen ${i}`));
    await waitFor('the call', () => calls.length > 0);
    await sleep(500);
    expect(calls).toEqual(['hello/local']);

    writeFileSync(path.join(root, 'repos', 'hello', 'local', 'README.md'), 'not a translation');
    mkdirSync(path.join(root, 'repos', 'hello', 'local', '.git'), { recursive: true });
    writeFileSync(path.join(root, 'repos', 'hello', 'local', '.git', 'index'), 'x');
    await sleep(600);
    expect(calls).toEqual(['hello/local']);

    // a new language file counts
    writeFileSync(
      path.join(root, 'repos', 'hello', 'local', 'translations', 'app_fr.ts'),
      demoFile('app/translations/app_de.ts').replace('language="de"', 'language="fr"'),
    );
    await waitFor('the second call', () => calls.length === 2);
    await w.close();
  });

  it('sees commits in a bare and in a non-bare local repository', async () => {
    const calls: string[] = [];
    const w = watchLocalComponents(config, (p, c) => calls.push(`${p}/${c}`), { debounceMs: 150 });
    await w.ready;
    await commitToUpstream(path.join(root, 'upstream', 'bare.git'), {
      'translations/app_de.ts': demoFile('app/translations/app_de.ts').replace('&amp;Datei', '&amp;Datei!'),
    });
    await waitFor('the bare repository', () => calls.includes('hello/bare'));
    await commitToUpstream(path.join(root, 'upstream', 'worktree'), {
      'translations/app_de.ts': demoFile('app/translations/app_de.ts').replace('&amp;Datei', '&amp;Datei?'),
    });
    await waitFor('the repository with a working tree', () => calls.includes('hello/tree'));
    await sleep(400);
    expect(calls.filter((c) => c === 'hello/bare')).toHaveLength(1);
    expect(calls.filter((c) => c === 'hello/tree')).toHaveLength(1);
    await w.close();
  });
});
