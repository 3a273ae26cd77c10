import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { Action } from '../../src/domain/actions.js';
import { type UpdateQueue, createUpdateQueue } from '../../src/hooks/queue.js';
import { createComponentUpdater } from '../../src/hooks/updater.js';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { syncProject } from '../../src/sync/index.js';
import { type WatchRuntime, startWatching } from '../../src/watch/runtime.js';
import { commitToUpstream, createUpstream, tempDir } from '../helpers/git-repo.js';
import { type DirectSql, sqlOn } from '../helpers/store.js';
import { DEMO, demoFile } from '../helpers/sync-env.js';
import { sleep, waitFor } from '../helpers/wait.js';

const APP = { name: 'App', slug: 'app', repo: 'upstream/app.git', branch: 'main', filemask: 'translations/app_*.ts', file_format: 'ts' };
const LOCAL = { name: 'Local', slug: 'local', vcs: 'local', filemask: 'translations/app_*.ts', file_format: 'ts' };
const GLOSSARY = { name: 'Glossary', slug: 'glossary', repo: 'upstream/glossary.git', branch: 'main', filemask: 'glossary/*.tbx', file_format: 'tbx' };

/** The demo German TS file with one more message. */
function withMessage(source: string, translation: string): string {
  return demoFile('app/translations/app_de.ts').replace(
    '</context>',
    `    <message>\n        <source>${source}</source>\n        <translation>${translation}</translation>\n    </message>\n</context>`,
  );
}

let root: string;
let file: string;
let store: Store;
let sql: DirectSql;
let queue: UpdateQueue;
let runtime: WatchRuntime;
const lines: string[] = [];

function writeConfig(components: unknown[], raw?: string): void {
  writeFileSync(file, raw ?? JSON.stringify({ database: 'tms.sqlite', repos_dir: 'repos', projects: [{ name: 'Hello', slug: 'hello', components }] }, null, 2));
}

async function targets(component: string, language: string): Promise<Record<string, string>> {
  const rows = (await sql.rows(
    `SELECT u.source, u.target FROM units u JOIN translations t ON t.id = u.translation_id JOIN components c ON c.id = t.component_id
     WHERE c.slug = ? AND t.language_code = ? ORDER BY u.position`,
    component,
    language,
  )) as { source: string; target: string }[];
  return Object.fromEntries(rows.map((r) => [r.source, r.target]));
}

async function actions(component: string): Promise<number[]> {
  return (
    (await sql.rows('SELECT action FROM changes ch JOIN components c ON c.id = ch.component_id WHERE c.slug = ? ORDER BY ch.id', component)) as {
      action: number;
    }[]
  ).map((r) => r.action);
}

beforeAll(async () => {
  root = await tempDir('tms-watch-runtime-');
  file = path.join(root, 'tms.config.json');
  await createUpstream({ dir: path.join(root, 'upstream', 'app.git'), fixture: path.join(DEMO, 'app') });
  await createUpstream({ dir: path.join(root, 'upstream', 'glossary.git'), fixture: path.join(DEMO, 'glossary'), into: 'glossary' });
  mkdirSync(path.join(root, 'repos', 'hello', 'local'), { recursive: true });
  cpSync(path.join(DEMO, 'app'), path.join(root, 'repos', 'hello', 'local'), { recursive: true });
  writeConfig([APP, LOCAL]);
  const config = loadConfig(file);
  store = await openStore(config.database);
  sql = sqlOn(store);
  const first = await syncProject(store, config, 'hello');
  expect(first.every((r) => r.ok)).toBe(true);
  queue = createUpdateQueue({
    update: createComponentUpdater({ store, getConfig: () => runtime.getConfig() }),
    lock: false,
    onError: (e) => lines.push(`error: ${String(e)}`),
  });
  runtime = startWatching({ store, config, queue, log: (l) => lines.push(l), debounceMs: { config: 50, files: 100 } });
  await runtime.ready();
});
afterAll(async () => {
  await runtime?.close();
  await queue?.close();
  await store?.close();
  await rm(root, { recursive: true, force: true });
});

describe('watching a running tms', () => {
  it('pulls a commit made in a local upstream repository and records change 21', async () => {
    expect((await targets('app', 'de'))['Save']).toBeUndefined();
    await commitToUpstream(path.join(root, 'upstream', 'app.git'), { 'translations/app_de.ts': withMessage('Save', 'Speichern') });
    await waitFor('the new string', async () => (await targets('app', 'de'))['Save'] === 'Speichern');
    await queue.idle();
    expect(await actions('app')).toContain(Action.REBASE);
    expect(lines).toContain('watch: hello/app changed on disk; re-scanning');
  });

  it('re-scans a local component edited from outside', async () => {
    expect((await targets('local', 'de'))['Open a file']).toBe('Eine Datei öffnen');
    writeFileSync(
      path.join(root, 'repos', 'hello', 'local', 'translations', 'app_de.ts'),
      demoFile('app/translations/app_de.ts').replace('Eine Datei öffnen', 'Datei öffnen'),
    );
    await waitFor('the edited string', async () => (await targets('local', 'de'))['Open a file'] === 'Datei öffnen');
    await queue.idle();
    // nothing was pulled: no repository change
    expect(await actions('local')).not.toContain(Action.REBASE);
  });

  it('applies a component added to the configuration, keeps the running one on an invalid edit, and stops watching a removed one', async () => {
    writeConfig([APP, LOCAL, GLOSSARY]);
    await waitFor('the added component', async () => (await targets('glossary', 'de'))['folder'] === 'Ordner');
    expect(runtime.getConfig().projects[0]!.components.map((c) => c.slug)).toEqual(['app', 'local', 'glossary']);
    expect(lines).toContain('watch: configuration reloaded: added hello/glossary');

    writeConfig([], '{ "projects": [ { "name": "Hello", "slug": "hello", "components": [ { "slug": "no name" } ] } ] }');
    await waitFor('the refusal', () => lines.find((l) => l.startsWith('watch: configuration not applied')));
    expect(runtime.getConfig().projects[0]!.components.map((c) => c.slug)).toEqual(['app', 'local', 'glossary']);

    await runtime.ready();
    await commitToUpstream(path.join(root, 'upstream', 'glossary.git'), {
      'glossary/de.tbx': demoFile('glossary/de.tbx').replace('<term>Ordner</term>', '<term>Verzeichnis</term>'),
    });
    await waitFor('the glossary commit', async () => (await targets('glossary', 'de'))['folder'] === 'Verzeichnis');

    writeConfig([APP, LOCAL]);
    await waitFor('the removal', () => lines.includes('watch: configuration reloaded: removed hello/glossary'));
    await queue.idle();
    await runtime.ready();
    // no uncommitted edits: the component left the store with its strings and history (on PostgreSQL the removal's
    // unit of work may still be committing when the reload is logged)
    await waitFor('the removed component to leave the store', async () => (await actions('glossary')).length === 0, 10_000);
    expect(await actions('glossary')).toHaveLength(0);
    expect(await targets('glossary', 'de')).toEqual({});
    await commitToUpstream(path.join(root, 'upstream', 'glossary.git'), { 'glossary/de.tbx': demoFile('glossary/de.tbx') });
    await sleep(600);
    await queue.idle();
    expect(await actions('glossary')).toHaveLength(0);
    expect(await targets('glossary', 'de')).toEqual({});
  });
});
