// Several `bin/tms serve` nodes on one PostgreSQL database and one git upstream: every node serves everything, a
// component's git work runs on one node at a time, and a node killed mid-commit or a PostgreSQL restart loses nothing.
import { execFile, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitToUpstream, createUpstream, gitCli, tempDir } from '../helpers/git-repo.js';
import { type GitServer, startGitServer } from '../helpers/git-server.js';
import { type Node, type Nodes, TMS, idle, json, request, stopNode, tmsNodes } from '../helpers/nodes.js';
import { type PostgresServer, startPostgres } from '../helpers/postgres-server.js';
import { CREDENTIALS, DEMO } from '../helpers/sync-env.js';
import { sleep, waitFor } from '../helpers/wait.js';
import { hmacHex, loadFixture, readdress } from '../hooks/fixtures.js';

const run = promisify(execFile);
const enabled = Boolean(process.env.TMS_TEST_POSTGRES);
if (!enabled) console.warn('[skip] several tms serve nodes: needs PostgreSQL (TMS_TEST_POSTGRES; run `npm run test:postgres`)');

const SECRET = 'nodes-s3cret';
const UNITS = '/api/translations/hello/app/de/units/';
const LOCK_TIMEOUT_MS = 20_000;

type UnitPage = { results: { id: number; source: string[]; target: string[] }[] };

let root: string;
let pg: PostgresServer;
let git: GitServer;
let upstream: string;
let configFile: string;
let admin: string;
/** Holds requests to the git server while set (a stalled upstream). */
let gate: ((method: string, url: string) => Promise<void> | undefined) | undefined;
const nodes: Record<string, Node> = {};

let cluster: Nodes;
const tms = (args: string[], name?: string) => cluster.tms(args, name);
async function startNode(name: string): Promise<Node> {
  const node = await cluster.start(name);
  nodes[name] = node;
  return node;
}

const auth = (token = admin) => ({ authorization: `Token ${token}`, 'content-type': 'application/json' });

async function targets(node: Node): Promise<Record<string, string>> {
  const page = await json<UnitPage>(node, UNITS);
  return Object.fromEntries(page.results.map((u) => [u.source[0], u.target[0]]));
}

async function unitId(node: Node, source: string): Promise<number> {
  const unit = (await json<UnitPage>(node, UNITS)).results.find((u) => u.source[0] === source);
  expect(unit, source).toBeDefined();
  return unit!.id;
}

async function edit(node: Node, source: string, text: string): Promise<void> {
  const r = await request(node, 'PATCH', `/api/units/${await unitId(node, source)}/`, JSON.stringify({ target: [text], state: 20 }), auth());
  expect(r.status, r.body).toBe(200);
}

async function operation(node: Node, op: string): Promise<{ result: boolean; detail?: string }> {
  const r = await request(node, 'POST', '/api/components/hello/app/repository/', JSON.stringify({ operation: op }), auth());
  expect(r.status, `${node.name} ${op}: ${r.body}\n${node.stderr.slice(-3000)}`).toBe(200);
  return JSON.parse(r.body);
}

const upstreamFile = () => gitCli(upstream, ['show', 'main:translations/app_de.ts']);
const upstreamCommits = async () => Number(await gitCli(upstream, ['rev-list', '--count', 'main']));
const count = async (node: Node, action: number) => (await json<{ count: number }>(node, `/api/changes/?action=${action}`)).count;

describe.skipIf(!enabled)('several tms serve nodes on one PostgreSQL database', () => {
  beforeAll(async () => {
    root = await tempDir('tms-nodes-');
    // a server of this file's own: one test stops and starts it
    pg = startPostgres(['tms_nodes']);
    git = await startGitServer({ root: path.join(root, 'upstream'), auth: CREDENTIALS, gate: (method, url) => gate?.(method, url) });
    upstream = path.join(root, 'upstream', 'app.git');
    await createUpstream({ dir: upstream, fixture: `${DEMO}/app` });
    configFile = path.join(root, 'tms.config.json');
    cluster = tmsNodes(root, configFile);
    const config = {
      database: pg.url('tms_nodes'),
      repos_dir: 'repos',
      lock_timeout_ms: LOCK_TIMEOUT_MS,
      log_level: 'warn',
      rate_limit: { anonymous: '', user: '' },
      hooks: { enabled: true, secret: SECRET },
      projects: [
        {
          name: 'Hello',
          slug: 'hello',
          components: [
            { name: 'App', slug: 'app', repo: git.url('app.git', CREDENTIALS), branch: 'main', filemask: 'translations/app_*.ts', file_format: 'ts' },
          ],
        },
      ],
    };
    writeFileSync(configFile, JSON.stringify(config));
    // the first load, from a cron-like `tms sync` of its own working copies
    const first = await tms(['sync', 'hello'], 'cron');
    // the first sync of a node on a fresh database reports what it loaded (not the no-change pass after its clone)
    expect(first).toMatch(/hello\/app: \d+ files \([1-9]\d* parsed\), units \+[1-9]/);
    admin = (await tms(['user', 'add', 'admin', '--admin', '--email', 'admin@example.org'])).trim().split('\n').at(-1)!;
    expect(admin).toMatch(/^wlu_/);
    await Promise.all([startNode('a'), startNode('b')]);
  }, 120_000);

  afterAll(async () => {
    gate = undefined;
    for (const node of Object.values(nodes)) await stopNode(node, 'SIGKILL');
    await git?.close();
    pg?.remove();
  });

  it('shows an edit made through node A on node B at once', async () => {
    const [a, b] = [nodes.a!, nodes.b!];
    for (let round = 1; round <= 3; round++) {
      // B's response cache holds the page before the edit
      await targets(b);
      const text = `Beenden ${round}`;
      await edit(a, 'Quit', text);
      expect((await targets(b)).Quit).toBe(text);
    }
  });

  it('takes API tokens and sign-in sessions on every node', async () => {
    const [a, b] = [nodes.a!, nodes.b!];
    const status = '/api/components/hello/app/repository/';
    expect((await request(b, 'GET', status, undefined, auth())).status).toBe(200);
    expect((await request(b, 'GET', status)).status).not.toBe(200);
    await tms(['user', 'add', 'web', '--admin', '--email', 'web@example.org']);
    // a password for the web sign-in, set through the CLI's standard input
    await new Promise<void>((resolve, reject) => {
      const p = spawn(process.execPath, [TMS, '--config', configFile, 'user', 'password', 'web'], {
        env: cluster.env('cli'),
        stdio: ['pipe', 'ignore', 'pipe'],
      });
      let err = '';
      p.stderr!.on('data', (d) => (err += d));
      p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`tms user password: ${err}`))));
      p.stdin!.end('correct horse battery staple\n');
    });
    const form = await request(a, 'GET', '/accounts/login/');
    const csrf = /tms_csrf=([^;]+)/.exec(form.cookies.join('\n'))![1]!;
    const body = new URLSearchParams({ username: 'web', password: 'correct horse battery staple', csrfmiddlewaretoken: csrf, next: '/' }).toString();
    const signIn = await request(a, 'POST', '/accounts/login/', body, { 'content-type': 'application/x-www-form-urlencoded', cookie: `tms_csrf=${csrf}` });
    expect([302, 303], signIn.body).toContain(signIn.status);
    const session = /tms_session=([^;]+)/.exec(signIn.cookies.join('\n'))![1]!;
    // the session opened on A is known to B
    const onB = await request(b, 'GET', status, undefined, { cookie: `tms_session=${session}` });
    expect(onB.status, onB.body).toBe(200);
  });

  it('pushes an edit made through A when B commits', async () => {
    const [a, b] = [nodes.a!, nodes.b!];
    await edit(a, 'Quit', 'Beenden über A');
    const before = await upstreamCommits();
    const r = await operation(b, 'commit');
    expect(r, r.detail).toMatchObject({ result: true });
    expect(await upstreamCommits()).toBe(before + 1);
    expect(await upstreamFile()).toContain('Beenden über A');
    // A, whose working copy is now behind, commits the next edit on top of B's commit
    await edit(b, 'Quit', 'Beenden über B');
    const again = await operation(a, 'commit');
    expect(again, again.detail).toMatchObject({ result: true });
    expect(await upstreamCommits()).toBe(before + 2);
    expect(await upstreamFile()).toContain('Beenden über B');
    const status = await json<{ needs_commit: boolean; needs_push: boolean }>(b, '/api/components/hello/app/repository/', auth());
    expect(status).toMatchObject({ needs_commit: false });
  }, 60_000);

  it('updates once for a webhook delivered to A and again to B', async () => {
    const [a, b] = [nodes.a!, nodes.b!];
    const [notified, updated] = [await count(a, 53), await count(a, 21)];
    // upstream as the last commit left it, plus a new string
    const current = await upstreamFile();
    const at = current.lastIndexOf('</context>');
    const message = '    <message>\n        <source>Save</source>\n        <translation>Speichern</translation>\n    </message>\n';
    await commitToUpstream(upstream, { 'translations/app_de.ts': `${current.slice(0, at)}${message}${current.slice(at)}` });
    const body = JSON.stringify(readdress(loadFixture('github', 'push').body, 'https://github.com/tms-test/hello', git.url('app')));
    const headers = {
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-github-delivery': 'nodes-1',
      'x-hub-signature-256': `sha256=${hmacHex(SECRET, body)}`,
    };
    const [toA, toB] = await Promise.all([request(a, 'POST', '/hooks/github/', body, headers), request(b, 'POST', '/hooks/github/', body, headers)]);
    expect([toA.status, toB.status], `${toA.body} ${toB.body}`).toEqual([200, 200]);
    await waitFor('the new string on both nodes', async () => (await targets(a)).Save === 'Speichern' && (await targets(b)).Save === 'Speichern');
    await idle(a);
    await idle(b);
    expect(await count(b, 53)).toBe(notified + 1);
    expect(await count(b, 21)).toBe(updated + 1);
  }, 60_000);

  it('answers wlc on either node', async () => {
    const ini = path.join(root, 'wlc.ini');
    for (const node of [nodes.a!, nodes.b!]) {
      writeFileSync(ini, `[weblate]\nurl = ${node.base}/api/\nkey = ${admin}\n`);
      const env = { ...process.env, HOME: root, XDG_CONFIG_HOME: root, XDG_CONFIG_DIRS: root };
      const { stdout, stderr } = await run('wlc', ['--config', ini, 'list-translations', 'hello/app'], { cwd: root, env, timeout: 60_000 });
      expect(stderr).toBe('');
      expect(stdout).toMatch(/language_code: de/);
      const stats = await run('wlc', ['--config', ini, 'commit', 'hello/app'], { cwd: root, env, timeout: 60_000 });
      expect(stats.stderr).toBe('');
    }
  }, 60_000);

  it('pulls through B while an edit made through A is pending and upstream moved; a cron sync elsewhere follows', async () => {
    const [a, b] = [nodes.a!, nodes.b!];
    await edit(a, 'Quit', 'Beenden beim Pull');
    const current = await upstreamFile();
    await commitToUpstream(upstream, {
      'translations/app_de.ts': current.replace('<translation>Speichern</translation>', '<translation>Sichern</translation>'),
    });
    const before = await upstreamCommits();
    const r = await operation(b, 'pull');
    expect(r, r.detail).toMatchObject({ result: true });
    // the pending edit was committed on top of upstream and pushed at once
    expect(await upstreamCommits()).toBe(before + 1);
    const file = await upstreamFile();
    expect(file).toContain('Beenden beim Pull');
    expect(file).toContain('<translation>Sichern</translation>');
    expect(await gitCli(upstream, ['rev-list', '--merges', '--count', 'main'])).toBe('0');
    expect((await targets(a)).Save).toBe('Sichern');
    // the cron's working copy (cloned at the start) is far behind: it follows the store
    const out = await tms(['sync', 'hello'], 'cron');
    expect(out).toMatch(/hello\/app/);
    expect((await targets(a)).Quit).toBe('Beenden beim Pull');
    expect(await gitCli(path.join(root, 'repos-cron', 'hello', 'app'), ['rev-parse', 'HEAD'])).toBe(await gitCli(upstream, ['rev-parse', 'main']));
  }, 60_000);

  it('loses nothing when node A is killed in the middle of a commit: B commits at once, A catches up after its restart', async () => {
    const b = nodes.b!;
    let a = nodes.a!;
    const sources = ['Quit', 'Open a file', 'Save'];
    for (const [i, source] of sources.entries()) await edit(a, source, `Gekillt ${i}`);
    const before = await upstreamCommits();
    // the upstream stalls A's push (the first one only): A holds the component's lock, its commit made in its working copy only
    let held!: () => void;
    const pushing = new Promise<void>((resolve) => {
      gate = (method, url) => {
        if (method !== 'POST' || !url.includes('git-receive-pack')) return undefined;
        gate = undefined;
        resolve();
        return new Promise<void>((release) => (held = release));
      };
    });
    const commitOnA = request(a, 'POST', '/api/components/hello/app/repository/', JSON.stringify({ operation: 'commit' }), auth()).catch((e: Error) => e);
    await pushing;
    // B serves meanwhile, and its commit waits for A's lock
    expect((await targets(b)).Quit).toBe('Gekillt 0');
    let done = false;
    const commitOnB = operation(b, 'commit').finally(() => (done = true));
    await sleep(1500);
    expect(done).toBe(false);
    await stopNode(a, 'SIGKILL');
    const killed = performance.now();
    expect(await commitOnA).toBeInstanceOf(Error);
    held();
    const r = await commitOnB;
    const seconds = (performance.now() - killed) / 1000;
    expect(r, r.detail).toMatchObject({ result: true });
    // had once PostgreSQL ended the dead node's session, not after the wait limit (20 s)
    expect(seconds).toBeLessThan(10);
    expect(await upstreamCommits()).toBe(before + 1);
    const file = await upstreamFile();
    for (const i of sources.keys()) expect(file).toContain(`Gekillt ${i}`);
    expect(await json<{ needs_commit: boolean }>(b, '/api/components/hello/app/repository/', auth())).toMatchObject({ needs_commit: false });
    // A comes back with its stale commit in its working copy: it follows the store, and its next commit goes on top
    a = await startNode('a');
    await edit(a, 'Quit', 'Wieder da');
    const again = await operation(a, 'commit');
    expect(again, again.detail).toMatchObject({ result: true });
    expect(await upstreamCommits()).toBe(before + 2);
    const latest = await upstreamFile();
    expect(latest).toContain('Wieder da');
    expect(latest).toContain('Gekillt 1');
    expect(latest).toContain('Gekillt 2');
    // linear history: A's commit sits on B's
    expect(await gitCli(upstream, ['rev-list', '--merges', '--count', 'main'])).toBe('0');
    console.log(`nodes: B's commit finished ${seconds.toFixed(2)} s after A was killed holding the lock`);
  }, 90_000);

  it('answers 503 JSON while PostgreSQL restarts under load, then every request succeeds', async () => {
    const [a, b] = [nodes.a!, nodes.b!];
    const id = await unitId(a, 'Quit');
    const seen = new Map<string, number>();
    const bad: string[] = [];
    let stop = false;
    let n = 0;
    const load = async (node: Node) => {
      while (!stop) {
        const i = n++;
        const r =
          i % 3 === 0
            ? await request(node, 'PATCH', `/api/units/${id}/`, JSON.stringify({ target: [`Last ${i}`], state: 20 }), auth())
            : await request(node, 'GET', i % 3 === 1 ? UNITS : '/api/projects/hello/components/');
        seen.set(String(r.status), (seen.get(String(r.status)) ?? 0) + 1);
        if (r.status !== 200 && !(r.status === 503 && r.type.startsWith('application/json') && JSON.parse(r.body))) {
          bad.push(`${node.name} ${r.status} ${r.type} ${r.body.slice(0, 200)}`);
        }
        if (r.status === 503) await sleep(20);
      }
    };
    const workers = [load(a), load(b), load(a), load(b)];
    await sleep(300);
    pg.stop('fast');
    const down = performance.now();
    await waitFor('503 answers while PostgreSQL is down', () => (seen.get('503') ?? 0) >= 8);
    await sleep(500);
    pg.start();
    const downSeconds = (performance.now() - down) / 1000;
    await sleep(300);
    stop = true;
    await Promise.all(workers);
    expect(bad).toEqual([]);
    // every request once it is back
    for (const node of [a, b]) {
      for (let i = 0; i < 10; i++) {
        const r = await request(
          node,
          i % 2 ? 'GET' : 'PATCH',
          i % 2 ? UNITS : `/api/units/${id}/`,
          i % 2 ? undefined : JSON.stringify({ target: [`Zurück ${i}`], state: 20 }),
          auth(),
        );
        expect(r.status, `${node.name} request ${i}: ${r.body}\n${node.stderr.slice(-3000)}`).toBe(200);
      }
    }
    for (const node of [a, b]) expect(node.proc.exitCode, node.stderr).toBeNull();
    expect((await targets(b)).Quit).toBe('Zurück 8');
    const commit = await operation(b, 'commit');
    expect(commit, commit.detail).toMatchObject({ result: true });
    console.log(`nodes: PostgreSQL down ${downSeconds.toFixed(2)} s; answers ${JSON.stringify(Object.fromEntries(seen))}`);
  }, 90_000);
});
