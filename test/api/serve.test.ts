// `tms serve` as a process: prints its URL, answers, and stops cleanly on SIGTERM.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ApiFixture, createApiFixture } from '../helpers/api-fixture.js';
import { repoRoot } from '../helpers/corpus.js';

let fixture: ApiFixture;
beforeAll(async () => {
  fixture = await createApiFixture();
  await fixture.store.close();
});
afterAll(() => fixture.close());

it('serves the configured store until SIGTERM', async () => {
  const configFile = path.join(fixture.dir, 'serve.config.json');
  // The fixture's own configuration (projects and components as stored), written out for the CLI.
  const projects = fixture.config.projects.map(({ components, ...p }) => ({
    ...p,
    // what parsing the configuration derives (the resolved repository, a link, the discovery rule that made it) is not written
    components: components.map(({ repoResolved: _resolved, linkedTo: _link, discoveredBy: _rule, ...c }) => c),
  }));
  writeFileSync(configFile, JSON.stringify({ database: fixture.config.database, repos_dir: fixture.config.repos_dir, projects }));
  // The CLI in its own process (signals are per process), run from the TypeScript sources.
  const runner = path.join(fixture.dir, 'serve.mts');
  const cli = pathToFileURL(path.join(repoRoot, 'src', 'cli', 'index.ts')).href;
  writeFileSync(
    runner,
    `const { main } = await import(${JSON.stringify(cli)});\nprocess.exitCode = await main(${JSON.stringify(['serve', '--config', configFile, '--port', '0'])});\n`,
  );
  const tms = spawn(process.execPath, ['--import', 'tsx', runner], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  tms.stderr.on('data', (d) => (stderr += d));
  const url = await new Promise<string>((resolve, reject) => {
    tms.stdout.on('data', (d) => {
      stdout += d;
      const m = /serving the API on (\S+) /.exec(stdout);
      if (m) resolve(m[1]!);
    });
    tms.once('exit', (code) => reject(new Error(`tms serve exited with ${code}: ${stderr}`)));
  });
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/$/);
  const r = await fetch(`${url}projects/hello/`);
  expect(r.status).toBe(200);
  expect(((await r.json()) as { slug: string }).slug).toBe('hello');
  const exit = new Promise<number | null>((resolve) => tms.once('exit', resolve));
  tms.kill('SIGTERM');
  expect(await exit).toBe(0);
  expect(stdout).toContain('tms: stopped (SIGTERM)');
}, 60_000);
