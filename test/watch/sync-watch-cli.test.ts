import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/corpus.js';
import { commitToUpstream, createUpstream, tempDir } from '../helpers/git-repo.js';
import { DEMO, demoFile } from '../helpers/sync-env.js';
import { waitFor } from '../helpers/wait.js';

let root: string;
let child: ChildProcess | undefined;

beforeAll(async () => {
  root = await tempDir('tms-sync-watch-cli-');
  await createUpstream({ dir: path.join(root, 'upstream', 'app.git'), fixture: path.join(DEMO, 'app') });
  mkdirSync(path.join(root, 'repos', 'hello', 'local'), { recursive: true });
  cpSync(path.join(DEMO, 'app'), path.join(root, 'repos', 'hello', 'local'), { recursive: true });
  const components = [
    { name: 'App', slug: 'app', repo: 'upstream/app.git', branch: 'main', filemask: 'translations/app_*.ts', file_format: 'ts' },
    { name: 'Local', slug: 'local', vcs: 'local', filemask: 'translations/app_*.ts', file_format: 'ts' },
  ];
  writeFileSync(path.join(root, 'tms.config.json'), JSON.stringify({ projects: [{ name: 'Hello', slug: 'hello', components }] }));
});
afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await rm(root, { recursive: true, force: true });
});

describe('tms sync --watch', () => {
  it('syncs once, re-syncs on local edits and upstream commits, and stops cleanly on SIGINT', async () => {
    const out: string[] = [];
    const err: string[] = [];
    child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(repoRoot, 'test', 'watch', 'cli-entry.ts'), '--config', path.join(root, 'tms.config.json'), 'sync', '--watch', 'hello'],
      {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const collect = (into: string[]) => (chunk: Buffer) => into.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    child.stdout!.on('data', collect(out));
    child.stderr!.on('data', collect(err));
    const exited = new Promise<number | null>((resolve) => child!.on('exit', (code) => resolve(code)));

    await waitFor('the watch to start', () => out.some((l) => l.startsWith('watching ')), 60_000);
    // the first sync printed one summary line per component
    expect(out.filter((l) => /^hello\/(app|local): \d+ files/.test(l))).toHaveLength(2);

    writeFileSync(
      path.join(root, 'repos', 'hello', 'local', 'translations', 'app_de.ts'),
      demoFile('app/translations/app_de.ts').replace('Eine Datei öffnen', 'Datei öffnen'),
    );
    await waitFor('the local re-scan', () => out.find((l) => /^hello\/local: .* units \+0 ~1 -0/.test(l)));

    await commitToUpstream(path.join(root, 'upstream', 'app.git'), { 'translations/app_cs.ts': null });
    await waitFor('the upstream re-sync', () => out.find((l) => /^hello\/app: 1 files \(0 parsed\), units \+0 ~0 -5, /.test(l)));

    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(out).toContain('stopping');
    expect(err).toEqual([]);
  });
});
