// Two `bin/tms serve` nodes on one PostgreSQL database, each with its own working copies, working on one repository
// that three components share (weblate:// links) at once: syncs and webhooks race, edits stay pending, commits push once.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitToUpstream, createUpstream, gitCli, tempDir } from '../helpers/git-repo.js';
import { type GitServer, startGitServer } from '../helpers/git-server.js';
import { type Node, type Nodes, idle, json, request, stopNode, tmsNodes } from '../helpers/nodes.js';
import { type PostgresServer, startPostgres } from '../helpers/postgres-server.js';
import { CREDENTIALS, demoFile } from '../helpers/sync-env.js';
import { waitFor } from '../helpers/wait.js';
import { hmacHex, loadFixture, readdress } from '../hooks/fixtures.js';

const enabled = Boolean(process.env.TMS_TEST_POSTGRES);
if (!enabled) console.warn('[skip] nodes on a shared repository: needs PostgreSQL (TMS_TEST_POSTGRES)');

const SECRET = 'linked-s3cret';
/** alpha owns the repository; beta and gamma link to it. */
const SLUGS = ['alpha', 'beta', 'gamma'];

type UnitPage = { count: number; results: { id: number; source: string[]; target: string[]; pending?: boolean }[] };

let root: string;
let pg: PostgresServer;
let git: GitServer;
let upstream: string;
let nodes: Nodes;
let a: Node;
let b: Node;
let admin: string;
/** The German sources of each component as the first sync loaded them (the demo file's), one unit each. */
let base: Record<string, number>;

const auth = () => ({ authorization: `Token ${admin}`, 'content-type': 'application/json' });
const units = (node: Node, slug: string) => json<UnitPage>(node, `/api/translations/hello/${slug}/de/units/?page_size=100`);

/** Each source of the component's German units, with how many units have it (a duplicate shows as 2). */
async function sources(node: Node, slug: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const u of (await units(node, slug)).results) out[u.source[0]!] = (out[u.source[0]!] ?? 0) + 1;
  return out;
}

async function edit(node: Node, slug: string, source: string, text: string): Promise<void> {
  const unit = (await units(node, slug)).results.find((u) => u.source[0] === source)!;
  const r = await request(node, 'PATCH', `/api/units/${unit.id}/`, JSON.stringify({ target: [text], state: 20 }), auth());
  expect(r.status, r.body).toBe(200);
}

async function operation(node: Node, slug: string, op: string): Promise<{ result: boolean; detail?: string }> {
  const r = await request(node, 'POST', `/api/components/hello/${slug}/repository/`, JSON.stringify({ operation: op }), auth());
  expect(r.status, `${node.name} ${slug} ${op}: ${r.body}\n${node.stderr.slice(-3000)}`).toBe(200);
  return JSON.parse(r.body);
}

/** A new German string `text` appended to each named component's file, as one upstream commit. */
async function addUpstreamString(slugs: string[], source: string, text: string): Promise<void> {
  const files: Record<string, string> = {};
  for (const slug of slugs) {
    const current = await gitCli(upstream, ['show', `main:${slug}/app_de.ts`]);
    const at = current.lastIndexOf('</context>');
    files[`${slug}/app_de.ts`] =
      `${current.slice(0, at)}    <message>\n        <source>${source}</source>\n        <translation>${text}</translation>\n    </message>\n${current.slice(at)}`;
  }
  await commitToUpstream(upstream, files, { message: `${source} in ${slugs.join(', ')}` });
}

const upstreamCommits = async () => Number(await gitCli(upstream, ['rev-list', '--count', 'main']));
const pushes = () => git.requests.filter((r) => r.startsWith('POST') && r.includes('git-receive-pack')).length;
/** Both nodes see nothing left to commit in any linked component, and upstream's history has no merge commit. */
async function expectAllCommittedWithoutMerges(): Promise<void> {
  for (const node of [a, b]) {
    for (const slug of SLUGS) {
      expect(await json<{ needs_commit: boolean }>(node, `/api/components/hello/${slug}/repository/`, auth()), `${node.name} ${slug}`).toMatchObject({
        needs_commit: false,
      });
    }
  }
  expect(await gitCli(upstream, ['rev-list', '--merges', '--count', 'main'])).toBe('0');
}
/** How many "Source string added" changes each component has: a string read twice (by both nodes) would count 2. */
async function added(node: Node): Promise<Record<string, number>> {
  const page = await json<{ results: { component: string }[] }>(node, '/api/changes/?action=13&page_size=1000');
  const out: Record<string, number> = {};
  for (const c of page.results) {
    const slug = c.component.split('/').at(-2)!;
    out[slug] = (out[slug] ?? 0) + 1;
  }
  return out;
}

/** The differences between two counts by component. */
const since = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(
    Object.entries(after)
      .map(([k, v]) => [k, v - (before[k] ?? 0)])
      .filter(([, v]) => v !== 0),
  );

describe.skipIf(!enabled)('two nodes on one repository shared by linked components', () => {
  beforeAll(async () => {
    root = await tempDir('tms-nodes-linked-');
    pg = startPostgres(['tms_linked']);
    git = await startGitServer({ root: path.join(root, 'upstream'), auth: CREDENTIALS });
    upstream = path.join(root, 'upstream', 'shared.git');
    const files: Record<string, string> = {};
    for (const slug of SLUGS) files[`${slug}/app_de.ts`] = demoFile('app/translations/app_de.ts');
    // alpha's base of new translations (its mask does not match it)
    files['alpha/app.ts'] = demoFile('app/translations/app_de.ts').replace(' language="de"', '');
    await createUpstream({ dir: upstream, files });
    const configFile = path.join(root, 'tms.config.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        database: pg.url('tms_linked'),
        repos_dir: 'repos',
        lock_timeout_ms: 30_000,
        log_level: 'warn',
        rate_limit: { anonymous: '', user: '' },
        hooks: { enabled: true, secret: SECRET },
        projects: [
          {
            name: 'Hello',
            slug: 'hello',
            components: SLUGS.map((slug, i) => ({
              name: slug,
              slug,
              repo: i === 0 ? git.url('shared.git', CREDENTIALS) : 'weblate://hello/alpha',
              ...(i === 0 ? { branch: 'main', new_base: 'alpha/app.ts' } : {}),
              filemask: `${slug}/app_*.ts`,
              file_format: 'ts',
              // each component's edits its own (no copy to the same string of the others)
              allow_translation_propagation: false,
            })),
          },
        ],
      }),
    );
    nodes = tmsNodes(root, configFile);
    await nodes.tms(['sync', 'hello'], 'cron');
    admin = (await nodes.tms(['user', 'add', 'admin', '--admin', '--email', 'admin@example.org'])).trim().split('\n').at(-1)!;
    [a, b] = await Promise.all([nodes.start('a'), nodes.start('b')]);
    base = await sources(a, 'alpha');
    expect(Object.values(base).every((n) => n === 1)).toBe(true);
  }, 120_000);

  afterAll(async () => {
    for (const node of [a, b]) await stopNode(node, 'SIGKILL');
    await git?.close();
    pg?.remove();
  });

  it('two nodes syncing the repository at once (cron on each) update each component once, keeping the edits pending', async () => {
    await edit(a, 'alpha', 'Quit', 'Beenden alpha');
    await edit(b, 'gamma', 'Quit', 'Beenden gamma');
    await addUpstreamString(['alpha', 'beta'], 'Save', 'Speichern');
    const before = await added(a);
    const [onA, onB] = await Promise.all([nodes.tms(['sync', 'hello'], 'a'), nodes.tms(['sync', 'hello'], 'b')]);
    expect(`${onA}\n${onB}`).not.toMatch(/[1-9]\d* errors|failed/);
    for (const node of [a, b]) {
      for (const slug of ['alpha', 'beta']) expect(await sources(node, slug)).toEqual({ ...base, Save: 1 });
      expect(await sources(node, 'gamma')).toEqual(base);
    }
    // alpha and beta read the new commit once between them (the other node found the store there already)
    expect(since(before, await added(b))).toEqual({ alpha: 1, beta: 1 });
    const parsed = (out: string, slug: string) => Number(new RegExp(`hello/${slug}: \\d+ files \\((\\d+) parsed\\)`).exec(out)?.[1]);
    for (const slug of SLUGS) expect(parsed(onA, slug) + parsed(onB, slug), `${onA}\n${onB}`).toBe(slug === 'gamma' ? 0 : 1);
    const quit = async (slug: string) => (await units(b, slug)).results.find((u) => u.source[0] === 'Quit')!;
    expect((await quit('alpha')).target[0]).toBe('Beenden alpha');
    expect((await quit('gamma')).target[0]).toBe('Beenden gamma');
    for (const slug of ['alpha', 'gamma']) {
      expect(await json<{ needs_commit: boolean }>(a, `/api/components/hello/${slug}/repository/`, auth())).toMatchObject({ needs_commit: true });
    }
  }, 120_000);

  it('a webhook for the repository delivered to both nodes at once updates each touched component once', async () => {
    await addUpstreamString(['beta', 'gamma'], 'Print', 'Drucken');
    const before = await added(a);
    const [commits, pushed] = [await upstreamCommits(), pushes()];
    const body = JSON.stringify(readdress(loadFixture('github', 'push').body, 'https://github.com/tms-test/hello', git.url('shared')));
    const headers = (id: string) => ({
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-github-delivery': id,
      'x-hub-signature-256': `sha256=${hmacHex(SECRET, body)}`,
    });
    // two deliveries (not one delivered twice, which the database answers once): both nodes update at once
    const [toA, toB] = await Promise.all([
      request(a, 'POST', '/hooks/github/', body, headers('linked-1')),
      request(b, 'POST', '/hooks/github/', body, headers('linked-2')),
    ]);
    expect([toA.status, toB.status], `${toA.body} ${toB.body}`).toEqual([200, 200]);
    await waitFor('the new string on both nodes', async () => (await sources(a, 'gamma')).Print === 1 && (await sources(b, 'beta')).Print === 1);
    await idle(a);
    await idle(b);
    for (const node of [a, b]) {
      expect(await sources(node, 'beta')).toEqual({ ...base, Save: 1, Print: 1 });
      expect(await sources(node, 'gamma')).toEqual({ ...base, Print: 1 });
      expect(await sources(node, 'alpha')).toEqual({ ...base, Save: 1 });
    }
    expect(since(before, await added(b))).toEqual({ beta: 1, gamma: 1 });
    // the update committed the pending edits of alpha and gamma first (several nodes push at once): one commit, one push
    expect(await upstreamCommits()).toBe(commits + 1);
    expect(pushes()).toBe(pushed + 1);
    expect((await gitCli(upstream, ['diff', '--name-only', 'main~1', 'main'])).split('\n').sort()).toEqual(['alpha/app_de.ts', 'gamma/app_de.ts']);
    expect(await gitCli(upstream, ['show', 'main:alpha/app_de.ts'])).toContain('Beenden alpha');
    expect(await gitCli(upstream, ['show', 'main:gamma/app_de.ts'])).toContain('Beenden gamma');
    for (const slug of ['alpha', 'gamma']) {
      expect(await json<{ needs_commit: boolean }>(b, `/api/components/hello/${slug}/repository/`, auth())).toMatchObject({ needs_commit: false });
    }
    expect(a.stderr + b.stderr).not.toMatch(/error/i);
  }, 120_000);

  it("a commit on either node carries every linked component's pending edits, pushed once; the other node's commit finds nothing left", async () => {
    await edit(a, 'alpha', 'Quit', 'Beenden alpha 2');
    await edit(b, 'beta', 'Quit', 'Beenden beta 2');
    await edit(a, 'gamma', 'Quit', 'Beenden gamma 2');
    const [commits, pushed] = [await upstreamCommits(), pushes()];
    // both nodes commit at once, each through a different component of the repository
    const [onA, onB] = await Promise.all([operation(a, 'alpha', 'commit'), operation(b, 'beta', 'commit')]);
    expect([onA.result, onB.result], `${onA.detail} ${onB.detail}`).toEqual([true, true]);
    expect(await upstreamCommits()).toBe(commits + 1);
    expect(pushes()).toBe(pushed + 1);
    expect((await gitCli(upstream, ['diff', '--name-only', 'main~1', 'main'])).split('\n').sort()).toEqual([
      'alpha/app_de.ts',
      'beta/app_de.ts',
      'gamma/app_de.ts',
    ]);
    for (const slug of SLUGS) expect(await gitCli(upstream, ['show', `main:${slug}/app_de.ts`])).toContain(`Beenden ${slug} 2`);
    await expectAllCommittedWithoutMerges();
  }, 120_000);
  it('a language added to one linked component on node A is committed, edited and downloaded through node B, whose working copy was behind', async () => {
    const [commits, pushed] = [await upstreamCommits(), pushes()];
    const r = await request(a, 'POST', '/api/components/hello/alpha/translations/', JSON.stringify({ language_code: 'fr' }), auth());
    expect(r.status, r.body).toBe(201);
    expect(await upstreamCommits()).toBe(commits + 1);
    expect(await gitCli(upstream, ['diff', '--name-only', 'main~1', 'main'])).toBe('alpha/app_fr.ts');
    // B has not fetched since: its working copy lacks the new file
    const fr = await json<UnitPage>(b, '/api/translations/hello/alpha/fr/units/');
    const quit = fr.results.find((u) => u.source[0] === 'Quit')!;
    const patch = await request(b, 'PATCH', `/api/units/${quit.id}/`, JSON.stringify({ target: ['Quitter'], state: 20 }), auth());
    expect(patch.status, patch.body).toBe(200);
    const download = await request(b, 'GET', '/api/translations/hello/alpha/fr/file/', undefined, auth());
    expect(download.status, download.body).toBe(200);
    expect(download.body).toContain('<TS version="2.1" language="fr"');
    const commit = await operation(b, 'beta', 'commit');
    expect(commit.result, commit.detail).toBe(true);
    expect(await upstreamCommits()).toBe(commits + 2);
    // the language's commit and the edit's: one push each, nothing taken back and pushed again
    expect(pushes()).toBe(pushed + 2);
    expect(await gitCli(upstream, ['show', 'main:alpha/app_fr.ts'])).toContain('<translation>Quitter</translation>');
    await expectAllCommittedWithoutMerges();
  }, 120_000);
  it("a commit that meets upstream moved on (it follows upstream and commits again) leaves every linked component reading upstream's change", async () => {
    const current = await gitCli(upstream, ['show', 'main:gamma/app_de.ts']);
    await commitToUpstream(upstream, { 'gamma/app_de.ts': current.replace('Eine Datei öffnen', 'Datei öffnen (upstream)') }, { message: 'gamma upstream' });
    await edit(a, 'alpha', 'Quit', 'Beenden alpha 3');
    const [commits, pushed] = [await upstreamCommits(), pushes()];
    const commit = await operation(a, 'alpha', 'commit');
    expect(commit.result, commit.detail).toBe(true);
    // the first push met upstream's commit (refused before its pack was sent): taken back, upstream followed,
    // committed and pushed again, on top of upstream's commit
    expect(await upstreamCommits()).toBe(commits + 1);
    expect(pushes()).toBe(pushed + 1);
    expect(await gitCli(upstream, ['log', '-2', '--format=%s'])).toMatch(/\ngamma upstream$/);
    expect(await gitCli(upstream, ['show', 'main:alpha/app_de.ts'])).toContain('Beenden alpha 3');
    // gamma's store reads what upstream changed in its file, on both nodes, without waiting for a sync
    for (const node of [a, b]) {
      const open = (await units(node, 'gamma')).results.find((u) => u.source[0] === 'Open a file')!;
      expect(open.target[0], node.name).toBe('Datei öffnen (upstream)');
    }
  }, 120_000);
  it('a commit of one linked component on node A (the others with nothing pending) is in the file node B serves next', async () => {
    // B's working copy brought to where the store is
    expect((await request(b, 'GET', '/api/translations/hello/alpha/de/file/', undefined, auth())).status).toBe(200);
    await edit(a, 'alpha', 'Quit', 'Beenden alpha 4');
    const commit = await operation(a, 'alpha', 'commit');
    expect(commit.result, commit.detail).toBe(true);
    expect(await gitCli(upstream, ['diff', '--name-only', 'main~1', 'main'])).toBe('alpha/app_de.ts');
    const download = await request(b, 'GET', '/api/translations/hello/alpha/de/file/', undefined, auth());
    expect(download.status, download.body).toBe(200);
    expect(download.body).toContain('<translation>Beenden alpha 4</translation>');
  }, 120_000);
});
