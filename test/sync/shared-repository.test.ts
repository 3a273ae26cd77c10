// Components sharing one repository (Weblate's weblate:// links): one working copy, one fetch, only touched components read.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openComponent } from '../../src/component/handle.js';
import { ConfigError } from '../../src/domain/errors.js';
import { addLanguage, repositoryStatus, uploadTranslation } from '../../src/operations/index.js';
import type { Store } from '../../src/store/index.js';
import { createUser } from '../../src/store/users.repo.js';
import { type SyncEvent, syncProject } from '../../src/sync/index.js';
import { thrownBy } from '../helpers/errors.js';
import { commitToUpstream, gitCli } from '../helpers/git-repo.js';
import { type DirectSql, sqlOn } from '../helpers/store.js';
import { CREDENTIALS, type SyncEnv, createSyncEnv, demoFile } from '../helpers/sync-env.js';

const SLUGS = ['alpha', 'beta', 'gamma', 'delta'];

/** One repository holding a Qt TS component per slug, `<slug>/app_<lang>.ts`. */
function files(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const slug of SLUGS) {
    out[`${slug}/app_de.ts`] = demoFile('app/translations/app_de.ts');
    out[`${slug}/app_cs.ts`] = demoFile('app/translations/app_cs.ts');
  }
  return out;
}

/** The first component owns the repository; the others link to it. */
function components(url: string) {
  return SLUGS.map((slug, i) => ({
    name: slug,
    slug,
    repo: i === 0 ? url : 'weblate://hello/alpha',
    ...(i === 0 ? { branch: 'main', new_base: 'alpha/app_de.ts' } : {}),
    filemask: `${slug}/app_*.ts`,
    file_format: 'ts',
  }));
}

/** Smart-HTTP requests to the repository since `from`: ref advertisements and pack exchanges. */
function gitRequests(env: SyncEnv, from: number): string[] {
  return env.server.requests.slice(from).filter((r) => r.includes('shared.git'));
}

describe('components sharing a repository', () => {
  let env: SyncEnv;
  let store: Store;
  let sql: DirectSql;
  let upstream: string;
  beforeAll(async () => {
    env = await createSyncEnv();
    await env.addUpstream('shared', files());
    upstream = env.upstream('shared');
    store = await env.openStore();
    sql = sqlOn(store);
  });
  afterAll(() => env.close());

  const config = () => env.config([{ name: 'Hello', slug: 'hello', components: components(env.server.url('shared.git', CREDENTIALS)) }]);

  /** Syncs the project; returns the results and the components that were scanned (their files looked at). */
  async function sync() {
    const scanned = new Set<string>();
    const onEvent = (e: SyncEvent) => {
      if (e.type === 'stage' && e.stage === 'scan') scanned.add(e.component);
    };
    const results = await syncProject(store, config(), 'hello', undefined, { onEvent });
    return { results, scanned: [...scanned].sort() };
  }

  it('clones the repository once and loads every linked component from that one working copy', async () => {
    const before = env.server.requests.length;
    const { results, scanned } = await sync();
    expect(results.map((r) => [r.component, r.ok])).toEqual(SLUGS.map((s) => [s, true]));
    // each component holds its own strings: the same files, so the same count
    expect(new Set(results.map((r) => r.added)).size).toBe(1);
    expect(results[0]!.added).toBeGreaterThan(0);
    expect(scanned).toEqual([...SLUGS].sort());
    // one working copy on disk: the owner's
    expect(readdirSync(path.join(env.root, 'repos', 'hello'))).toEqual(['alpha']);
    expect(existsSync(path.join(env.root, 'repos', 'hello', 'beta'))).toBe(false);
    // git clone's own exchange: one ref advertisement and one pack
    // git clone's own exchange, once
    const requests = gitRequests(env, before);
    expect(requests.filter((r) => r.startsWith('GET') && r.includes('info/refs')).length).toBeLessThanOrEqual(2);
    expect(requests.filter((r) => r.startsWith('POST') && r.endsWith('git-upload-pack')).length).toBeLessThanOrEqual(2);
  });

  it('asks upstream as often for all the components as for one alone when nothing moved, and reads no component', async () => {
    let before = env.server.requests.length;
    await syncProject(store, config(), 'hello', 'alpha');
    const alone = gitRequests(env, before);
    expect(alone.length).toBeGreaterThan(0);
    before = env.server.requests.length;
    const { results, scanned } = await sync();
    expect(results.every((r) => r.ok && r.parsed === 0)).toBe(true);
    expect(scanned).toEqual([]);
    expect(gitRequests(env, before)).toEqual(alone);
  });

  it('fetches once after a push (as one component alone does) and reads only the component whose file changed', async () => {
    const de = demoFile('app/translations/app_de.ts');
    // what one component alone asks of upstream after a push
    await commitToUpstream(upstream, { 'gamma/app_de.ts': de.replace('Eine Datei öffnen', 'Eine Datei öffnen!') });
    let before = env.server.requests.length;
    await syncProject(store, config(), 'hello', 'alpha');
    const alone = gitRequests(env, before);
    expect(alone.some((r) => r.startsWith('POST') && r.endsWith('git-upload-pack'))).toBe(true);
    await commitToUpstream(upstream, { 'gamma/app_de.ts': de.replace('Eine Datei öffnen', 'Datei öffnen') });
    before = env.server.requests.length;
    const { results, scanned } = await sync();
    expect(gitRequests(env, before)).toEqual(alone);
    expect(scanned).toEqual(['gamma']);
    expect(results.map((r) => [r.component, r.ok, r.parsed, r.changed])).toEqual([
      ['alpha', true, 0, 0],
      ['beta', true, 0, 0],
      ['gamma', true, 1, 1],
      ['delta', true, 0, 0],
    ]);
    // every component's store is at upstream's commit
    const commits = await sql.rows("SELECT DISTINCT c.synced_commit FROM components c JOIN projects p ON p.id = c.project_id WHERE p.slug = 'hello'");
    expect(commits).toHaveLength(1);
    expect((await sql.rows("SELECT u.target FROM units u WHERE u.source = 'Open a file' AND u.target LIKE '%öffnen'")).map((r) => r.target).sort()).toEqual([
      'Datei öffnen',
      'Eine Datei öffnen',
      'Eine Datei öffnen',
      'Eine Datei öffnen',
    ]);
  });

  it("a new language and a replacing upload on one component move the others' stores to the commit they made, reading none of them", async () => {
    const { user } = await store.write((tx) => createUser(tx, { username: 'jane', fullName: 'Jane Doe', email: 'jane@example.org' }));
    const cfg = config();
    const [project, alpha] = [cfg.projects[0]!, cfg.projects[0]!.components[0]!];
    const head = () => gitCli(path.join(env.root, 'repos', 'hello', 'alpha'), ['rev-parse', 'HEAD']);
    const synced = async () =>
      Object.fromEntries((await sql.rows('SELECT slug, synced_commit FROM components ORDER BY slug')).map((r) => [r.slug, r.synced_commit]));
    const everyAt = (commit: string) => Object.fromEntries([...SLUGS].sort().map((slug) => [slug, commit]));
    const betaBefore = await sql.rows(
      "SELECT u.id, u.target FROM units u JOIN translations t ON t.id = u.translation_id JOIN components c ON c.id = t.component_id WHERE c.slug = 'beta' ORDER BY u.id",
    );
    await addLanguage(await openComponent(store, cfg, project, alpha), 'fr', user);
    const added = await head();
    expect(await gitCli(upstream, ['rev-parse', 'main'])).toBe(added);
    expect(await synced()).toEqual(everyAt(added));
    // the repository status of a linked component is the shared working copy's: it shows the new commit at once
    const beta = await repositoryStatus(await openComponent(store, cfg, project, project.components[1]!));
    expect(beta).toMatchObject({ needs_commit: false, needs_push: false, ahead: 0, behind: 0 });
    expect(beta.weblate_commit?.revision).toBe(added);
    const de = demoFile('app/translations/app_de.ts').replace('Eine Datei öffnen', 'Hochgeladen');
    await uploadTranslation(await openComponent(store, cfg, project, alpha), 'de', { user, method: 'replace', bytes: Buffer.from(de) });
    const uploaded = await head();
    expect(uploaded).not.toBe(added);
    expect(await synced()).toEqual(everyAt(uploaded));
    // the others' units are as they were, and the next sync finds nothing to read
    expect(
      await sql.rows(
        "SELECT u.id, u.target FROM units u JOIN translations t ON t.id = u.translation_id JOIN components c ON c.id = t.component_id WHERE c.slug = 'beta' ORDER BY u.id",
      ),
    ).toEqual(betaBefore);
    const { results, scanned } = await sync();
    expect(results.every((r) => r.ok && r.parsed === 0)).toBe(true);
    expect(scanned).toEqual([]);
  });
});

describe('weblate:// links in the configuration', () => {
  let env: SyncEnv;
  beforeAll(async () => {
    env = await createSyncEnv();
  });
  afterAll(() => env.close());

  const problems = (list: Record<string, unknown>[]) =>
    thrownBy(ConfigError, () => env.config([{ name: 'Hello', slug: 'hello', components: list.map((c) => ({ filemask: '*.ts', file_format: 'ts', ...c })) }]))
      .data.problems;

  it('refuses a link to nothing, to itself, to a linked component, and settings the linked repository decides', () => {
    expect(
      problems([
        { name: 'A', slug: 'a', repo: 'https://example.org/a.git' },
        { name: 'B', slug: 'b', repo: 'weblate://hello/missing' },
        { name: 'C', slug: 'c', repo: 'weblate://hello/c' },
        { name: 'D', slug: 'd', repo: 'weblate://hello/e' },
        { name: 'E', slug: 'e', repo: 'weblate://hello/a' },
        { name: 'F', slug: 'f', repo: 'weblate://hello/a', branch: 'other' },
        { name: 'G', slug: 'g', repo: 'weblate://hello' },
      ]),
    ).toEqual([
      'projects[0].components[1].repo: links to "hello/missing", which is not a configured component',
      'projects[0].components[2].repo: links the component to itself',
      'projects[0].components[3].repo: links to "hello/e", which is linked itself (to "weblate://hello/a"); link to a component with its own repository',
      'projects[0].components[5].branch: a linked component takes it from the component it links to; leave it out',
      'projects[0].components[6].repo: a repository link must be "weblate://<project>/<component>"',
    ]);
  });

  it('refuses a loop (each linked to the other)', () => {
    expect(
      problems([
        { name: 'A', slug: 'a', repo: 'weblate://hello/b' },
        { name: 'B', slug: 'b', repo: 'weblate://hello/a' },
      ]),
    ).toEqual([
      'projects[0].components[0].repo: links to "hello/b", which is linked itself (to "weblate://hello/a"); link to a component with its own repository',
      'projects[0].components[1].repo: links to "hello/a", which is linked itself (to "weblate://hello/b"); link to a component with its own repository',
    ]);
  });

  it('gives a linked component the repository, branch and credentials of the one it links to', () => {
    const config = env.config([
      {
        name: 'Hello',
        slug: 'hello',
        components: [
          { name: 'B', slug: 'b', repo: 'weblate://hello/a', filemask: 'b/*.ts', file_format: 'ts' },
          { name: 'A', slug: 'a', repo: 'https://example.org/a.git', branch: 'dev', username: 'u', password: 'p', filemask: 'a/*.ts', file_format: 'ts' },
        ],
      },
    ]);
    const [b] = config.projects[0]!.components;
    expect(b).toMatchObject({ repo: 'weblate://hello/a', repoResolved: 'https://example.org/a.git', branch: 'dev', username: 'u', password: 'p' });
    expect(b!.linkedTo).toEqual({ project: 'hello', component: 'a' });
  });
});
