// `tms serve --workers 2` as a process: reads from either worker see every edit, repository operations and webhooks
// run once (on the leader), a killed worker is replaced, SIGTERM stops them all.
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/config.js';
import { createUser } from '../../src/store/users.repo.js';
import { syncProject } from '../../src/sync/index.js';
import { repoRoot } from '../helpers/corpus.js';
import { commitToUpstream, gitCli } from '../helpers/git-repo.js';
import { multipartFile, uploadWhole } from '../helpers/http.js';
import { CREDENTIALS, DEMO, type SyncEnv, createSyncEnv, demoFile } from '../helpers/sync-env.js';
import { waitFor } from '../helpers/wait.js';
import { hmacHex, loadFixture, readdress } from '../hooks/fixtures.js';

const SECRET = 'workers-s3cret';

let env: SyncEnv;
let config: Config;
let admin: string;
let tms: ChildProcess;
let base: string;
let stdout = '';
let stderr = '';

interface Reply {
  status: number;
  body: string;
}

/** One request on a connection of its own, so the cluster's round robin spreads them over the workers. */
function request(method: string, url: string, body?: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${url}`, { method, agent: false, headers: { connection: 'close', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function json<T>(url: string, headers?: Record<string, string>): Promise<T> {
  const r = await request('GET', url, undefined, headers);
  expect(r.status, `${url}: ${r.body}`).toBe(200);
  return JSON.parse(r.body) as T;
}

type UnitPage = { results: { id: number; source: string[]; target: string[] }[] };
type Health = { status: string; queue: { running: number; queued: number }; workers: { count: number; running: number; restarts: number; pids: number[] } };

const UNITS = '/api/translations/hello/app/de/units/';

async function germanTargets(): Promise<Record<string, string>> {
  const page = await json<UnitPage>(UNITS);
  return Object.fromEntries(page.results.map((u) => [u.source[0], u.target[0]]));
}

/** The serving workers as the leader reports them. */
async function workerPids(): Promise<number[]> {
  return (await json<Health>('/healthz')).workers.pids;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  env = await createSyncEnv();
  await env.addUpstream('app', { fixture: `${DEMO}/app` });
  config = env.config(
    [
      {
        name: 'Hello',
        slug: 'hello',
        components: [
          { name: 'App', slug: 'app', repo: env.server.url('app.git', CREDENTIALS), branch: 'main', filemask: 'translations/app_*.ts', file_format: 'ts' },
        ],
      },
    ],
    { hooks: { enabled: true, secret: SECRET }, log_level: 'warn', rate_limit: { anonymous: '', user: '' } },
  );
  const store = await env.openStore();
  const [first] = await syncProject(store, config, 'hello');
  expect(first!.ok).toBe(true);
  admin = (await store.write((tx) => createUser(tx, { username: 'admin', email: 'admin@example.org', admin: true }))).token;
  await store.close();
  // The CLI in its own process, run from the TypeScript sources (the workers are forked from the same runner).
  const runner = path.join(env.root, 'serve.mts');
  const cli = pathToFileURL(path.join(repoRoot, 'src', 'cli', 'index.ts')).href;
  const args = ['serve', '--config', config.file, '--port', '0', '--workers', '2'];
  writeFileSync(runner, `const { main } = await import(${JSON.stringify(cli)});\nprocess.exitCode = await main(${JSON.stringify(args)});\n`);
  tms = spawn(process.execPath, ['--import', 'tsx', runner], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  tms.stderr!.on('data', (d) => (stderr += d));
  const url = await new Promise<string>((resolve, reject) => {
    tms.stdout!.on('data', (d) => {
      stdout += d;
      const m = /serving the API on (\S+)\/api\/ /.exec(stdout);
      if (m) resolve(m[1]!);
    });
    tms.once('exit', (code) => reject(new Error(`tms serve exited with ${code}: ${stderr}`)));
  });
  base = url;
}, 120_000);

afterAll(async () => {
  if (tms && tms.exitCode === null) {
    const exit = new Promise((resolve) => tms.once('exit', resolve));
    tms.kill('SIGKILL');
    await exit;
  }
  await env?.close();
});

describe('tms serve --workers 2', () => {
  it('runs two serving workers beside the leader', async () => {
    const health = await json<Health>('/healthz');
    expect(health).toMatchObject({ status: 'ok', workers: { count: 2, running: 2, restarts: 0 } });
    expect(health.workers.pids).toHaveLength(2);
    for (const pid of health.workers.pids) expect(alive(pid)).toBe(true);
  });

  it('shows every edit on each following read, whichever worker answers', async () => {
    const page = await json<UnitPage>(UNITS);
    const unit = page.results.find((u) => u.source[0] === 'Quit')!;
    expect(unit).toBeDefined();
    for (let round = 1; round <= 5; round++) {
      // both workers' caches hold the page before the edit
      for (let i = 0; i < 6; i++) await json<UnitPage>(UNITS);
      const text = `Beenden ${round}`;
      const edit = await request('PATCH', `/api/units/${unit.id}/`, JSON.stringify({ target: [text], state: 20 }), {
        authorization: `Token ${admin}`,
        'content-type': 'application/json',
      });
      expect(edit.status, edit.body).toBe(200);
      const seen = await Promise.all(Array.from({ length: 20 }, async () => (await germanTargets())['Quit']));
      expect(seen).toEqual(Array(20).fill(text));
    }
  }, 60_000);

  it('stores every one of many concurrent edits made through both workers', async () => {
    const units = (await json<UnitPage>(UNITS)).results.filter((u) => u.source.length === 1 && u.source[0] !== 'Quit');
    expect(units.length).toBeGreaterThan(2);
    const edits = Array.from({ length: 120 }, (_, i) => ({ unit: units[i % units.length]!, text: `Edit ${i}` }));
    const answers = await Promise.all(
      edits.map(({ unit, text }) =>
        request('PATCH', `/api/units/${unit.id}/`, JSON.stringify({ target: [text], state: 20 }), {
          authorization: `Token ${admin}`,
          'content-type': 'application/json',
        }),
      ),
    );
    expect(answers.filter((a) => a.status !== 200).map((a) => a.body)).toEqual([]);
    // each unit holds one of the texts sent for it, on every worker
    const targets = await germanTargets();
    for (const unit of units) {
      const sent = edits.filter((e) => e.unit === unit).map((e) => e.text);
      expect(sent).toContain(targets[unit.source[0]!]);
    }
  }, 60_000);

  it('runs a repository operation (commit and push) on the leader', async () => {
    const before = await gitCli(env.upstream('app'), ['rev-list', '--count', 'main']);
    const r = await request('POST', '/api/components/hello/app/repository/', JSON.stringify({ operation: 'commit' }), {
      authorization: `Token ${admin}`,
      'content-type': 'application/json',
    });
    expect(r.status, r.body).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ result: true });
    expect(Number(await gitCli(env.upstream('app'), ['rev-list', '--count', 'main']))).toBe(Number(before) + 1);
    expect(await gitCli(env.upstream('app'), ['show', 'main:translations/app_de.ts'])).toContain('Beenden 5');
    // a file download (forwarded: it reads the working copy) has the committed text
    const file = await request('GET', '/api/translations/hello/app/de/file/');
    expect(file.status).toBe(200);
    expect(file.body).toContain('Beenden 5');
    const status = await json<{ needs_commit: boolean }>('/api/components/hello/app/repository/', { authorization: `Token ${admin}` });
    expect(status.needs_commit).toBe(false);
  }, 60_000);

  it('updates once per webhook', async () => {
    type Changes = { count: number };
    const count = async (action: number) => (await json<Changes>(`/api/changes/?action=${action}`)).count;
    const [notified, updated] = [await count(53), await count(21)];
    const file = demoFile('app/translations/app_de.ts').replace(
      '</context>',
      '    <message>\n        <source>Save</source>\n        <translation>Speichern</translation>\n    </message>\n</context>',
    );
    await commitToUpstream(env.upstream('app'), { 'translations/app_de.ts': file });
    const body = JSON.stringify(readdress(loadFixture('github', 'push').body, 'https://github.com/tms-test/hello', env.server.url('app')));
    const r = await request('POST', '/hooks/github/', body, {
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-github-delivery': 'workers-1',
      'x-hub-signature-256': `sha256=${hmacHex(SECRET, body)}`,
    });
    expect(r.status, r.body).toBe(200);
    await waitFor('the new string on every worker', async () => {
      const seen = await Promise.all(Array.from({ length: 6 }, async () => (await germanTargets())['Save']));
      return seen.every((t) => t === 'Speichern');
    });
    await waitFor('an idle queue', async () => {
      const { queue } = await json<Health>('/healthz');
      return queue.running === 0 && queue.queued === 0;
    });
    expect(await count(53)).toBe(notified + 1);
    expect(await count(21)).toBe(updated + 1);
  }, 60_000);

  it('answers an upload over upload_max_bytes (60 MB, sent whole) with the 413 one process gives, not a 503', async () => {
    const FILE = '/api/translations/hello/app/de/file/';
    const upload = multipartFile(Buffer.alloc(60 * 1000 * 1000, 'x'));
    // several connections, so that both workers forward one
    for (let i = 0; i < 3; i++) {
      const answer = await uploadWhole(base + FILE, admin, upload);
      expect(answer.error).toBeNull();
      expect(answer.status, answer.text).toBe(413);
      expect(JSON.parse(answer.text)).toMatchObject({ type: 'client_error', errors: [{ code: 'payload_too_large' }] });
    }
    // Expect: 100-continue: the refusal comes before the body, through the worker too
    const expecting = await uploadWhole(base + FILE, admin, upload, true);
    expect(expecting.continued).toBe(false);
    expect(expecting.status, expecting.text).toBe(413);
    // and an upload within the limit that waits for 100 Continue gets it, and is read
    const read = await uploadWhole(base + FILE, admin, multipartFile('<?xml version="1.0"?>\n<TS version="2.1" language="de"></TS>\n'), true);
    expect(read.continued).toBe(true);
    expect(read.status, read.text).toBe(200);
  }, 60_000);

  it('replaces a killed worker', async () => {
    const [victim, other] = await workerPids();
    process.kill(victim!, 'SIGKILL');
    // Connections the cluster hands to a worker in the instant it dies are lost with it (node:cluster's round robin):
    // the next request goes out once the leader has seen the exit.
    await waitFor('the exit noticed', () => stderr.includes(`serving worker ${victim} exited (SIGKILL); starting another`));
    await waitFor('a replacement', async () => {
      const { workers } = await json<Health>('/healthz');
      return workers.restarts === 1 && workers.running === 2;
    });
    await waitFor('the replacement listening', async () => {
      const pids = await workerPids();
      return pids.length === 2 && pids.includes(other!) && !pids.includes(victim!);
    });
    // every connection is answered, whichever worker takes it
    const answers = await Promise.all(Array.from({ length: 20 }, () => request('GET', UNITS)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
  }, 60_000);

  it('stops every process on SIGTERM', async () => {
    const pids = await workerPids();
    const exit = new Promise<number | null>((resolve) => tms.once('exit', resolve));
    tms.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(stdout).toContain('tms: stopped (SIGTERM)');
    for (const pid of pids) expect(alive(pid)).toBe(false);
  }, 30_000);
});
