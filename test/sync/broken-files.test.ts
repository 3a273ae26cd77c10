// A file that does not parse keeps failing every sync (and the CLI's exit status) until fixed; a mask matching nothing warns.
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summaryLine } from '../../src/cli/sync.js';
import { parseConfig } from '../../src/config/config.js';
import { componentAlerts } from '../../src/store/alerts.repo.js';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { findComponent } from '../../src/store/projects.repo.js';
import { syncProject } from '../../src/sync/index.js';
import { runCli } from '../helpers/cli.js';
import { commitToUpstream, createUpstream, tempDir } from '../helpers/git-repo.js';
import { DEMO, demoFile } from '../helpers/sync-env.js';

const BROKEN_DE = '<?xml version="1.0" encoding="utf-8"?>\n<TS version="2.1" language="de">\n<context>\n  <name>Main';

describe('a file that does not parse', () => {
  let root: string;
  let store: Store;
  let upstream: string;
  let configFile: string;
  const raw = () =>
    JSON.stringify({
      database: 'tms.sqlite',
      repos_dir: 'repos',
      projects: [
        {
          name: 'Hello',
          slug: 'hello',
          components: [
            { name: 'App', slug: 'app', repo: upstream, branch: 'main', filemask: 'translations/app_*.ts', file_format: 'ts' },
            { name: 'Docs', slug: 'docs', repo: upstream, branch: 'main', filemask: 'docs/*.ts', file_format: 'ts' },
          ],
        },
      ],
    });
  const config = () => parseConfig(raw(), configFile);

  beforeAll(async () => {
    root = await tempDir('tms-broken-');
    upstream = path.join(root, 'upstream', 'app.git');
    await createUpstream({ dir: upstream, fixture: path.join(DEMO, 'app'), files: { 'translations/app_de.ts': BROKEN_DE } });
    configFile = path.join(root, 'tms.config.json');
    await writeFile(configFile, raw());
    store = await openStore(config().database);
  });
  afterAll(async () => {
    await store.close();
    await rm(root, { recursive: true, force: true });
  });

  const alerts = async (slug: string) => {
    const row = await store.read((tx) => findComponent(tx, 'hello', slug));
    return (await store.read((tx) => componentAlerts(tx, row!.id))).map((a) => ({ name: a.name, details: JSON.parse(a.details) as Record<string, unknown> }));
  };

  it('fails the first sync with file, line and column, and records the ParseError alert', async () => {
    const [app] = await syncProject(store, config(), 'hello', 'app');
    expect(app!.ok).toBe(false);
    const de = app!.files.find((f) => f.path === 'translations/app_de.ts');
    expect(de?.status).toBe('failed');
    expect(de?.error).toMatch(/^translations\/app_de\.ts:\d+:\d+: /);
    expect(app!.files.find((f) => f.path === 'translations/app_cs.ts')?.status).toBe('parsed');
    expect(await alerts('app')).toEqual([{ name: 'ParseError', details: { files: [{ filename: 'translations/app_de.ts', error: de?.error }] } }]);
  });

  it('keeps failing the syncs after it while the file is unchanged (nothing re-read), in the summary too', async () => {
    const [app] = await syncProject(store, config(), 'hello', 'app');
    expect(app!.parsed).toBe(0);
    expect(app!.ok).toBe(false);
    expect(app!.files.find((f) => f.path === 'translations/app_de.ts')).toMatchObject({ status: 'failed', error: expect.stringMatching(/app_de\.ts:\d+:\d+/) });
    expect(summaryLine(app!)).toContain('1 errors');
    expect((await alerts('app')).map((a) => a.name)).toEqual(['ParseError']);
  });

  it('keeps the CLI exit status 1 and names the file on every run', async () => {
    for (let run = 0; run < 2; run++) {
      const r = await runCli(['--config', configFile, 'sync', 'hello', 'app']);
      expect(r.code).toBe(1);
      expect(r.stdout.join('\n')).toContain('1 errors');
      expect(r.stderr.join('\n')).toMatch(/hello\/app: translations\/app_de\.ts:\d+:\d+/);
    }
  });

  it('clears the failure and the alert once upstream fixes the file', async () => {
    await commitToUpstream(upstream, { 'translations/app_de.ts': demoFile('app/translations/app_de.ts') });
    const [app] = await syncProject(store, config(), 'hello', 'app');
    expect(app!.ok).toBe(true);
    expect(app!.files.find((f) => f.path === 'translations/app_de.ts')?.status).toBe('parsed');
    expect(await alerts('app')).toEqual([]);
    const r = await runCli(['--config', configFile, 'sync', 'hello', 'app']);
    expect(r.code).toBe(0);
    expect(r.stdout.join('\n')).toContain('0 errors');
  });

  it('warns about a file mask that matches no file, in the summary and as an alert, on every sync', async () => {
    for (let run = 0; run < 2; run++) {
      const [docs] = await syncProject(store, config(), 'hello', 'docs');
      expect(docs!.ok).toBe(true);
      expect(docs!.warnings).toEqual(['file mask "docs/*.ts" matches no file']);
      expect(summaryLine(docs!)).toContain('warning: file mask "docs/*.ts" matches no file');
      expect(await alerts('docs')).toEqual([{ name: 'NoMaskMatches', details: { filemask: 'docs/*.ts' } }]);
    }
    await commitToUpstream(upstream, { 'docs/de.ts': demoFile('app/translations/app_de.ts') });
    const [docs] = await syncProject(store, config(), 'hello', 'docs');
    expect(docs!.warnings).toEqual([]);
    expect(await alerts('docs')).toEqual([]);
  });
});
