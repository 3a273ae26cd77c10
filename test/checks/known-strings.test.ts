// What a run of syncs keeps of its project's strings across its transactions (checks/known-strings.ts): read once
// per language in a run that nothing else writes to, and dropped by any other write (another connection's, this
// one's outside the run) and by a transaction that failed, so `inconsistent` stays what the store says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KnownStrings, stringHash } from '../../src/checks/known-strings.js';
import { resolveComponent } from '../../src/component/resolve.js';
import type { Config } from '../../src/config/config.js';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { applyConfig } from '../../src/sync/config.js';
import { syncComponent, syncProject } from '../../src/sync/index.js';
import { sqlOn } from '../helpers/store.js';
import { CREDENTIALS, type SyncEnv, createSyncEnv } from '../helpers/sync-env.js';

/** A German Qt TS file of these (source, translation) messages in context Main. */
function tsFile(messages: [string, string][]): string {
  const body = messages.map(([s, t]) => `    <message>\n        <source>${s}</source>\n        <translation>${t}</translation>\n    </message>`);
  return `<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n<TS version="2.1" language="de">\n<context>\n    <name>Main</name>\n${body.join('\n')}\n</context>\n</TS>\n`;
}

// b and c share a string, translated otherwise in each: both fail inconsistent once both are in
const FILES: Record<string, [string, string][]> = {
  a: [['Alpha only', 'Nur Alpha']],
  b: [
    ['Beta only', 'Nur Beta'],
    ['Shared', 'Eins'],
  ],
  c: [
    ['Gamma only', 'Nur Gamma'],
    ['Shared', 'Zwei'],
  ],
};

describe('the strings a run of syncs keeps across its transactions', () => {
  let env: SyncEnv;
  let n = 0;

  beforeAll(async () => {
    env = await createSyncEnv();
    for (const [slug, messages] of Object.entries(FILES)) await env.addUpstream(slug, { 'translations/app_de.ts': tsFile(messages) });
  });
  afterAll(async () => {
    await env?.close();
  });

  /** A fresh store (its own file and working copies) with the three components configured. */
  async function fresh(): Promise<{ store: Store; config: Config; file: string }> {
    const name = `known-${++n}`;
    const components = Object.keys(FILES).map((slug) => ({
      name: slug,
      slug,
      vcs: 'git',
      branch: 'main',
      source_language: 'en',
      filemask: 'translations/app_*.ts',
      file_format: 'ts',
      repo: env.server.url(`${slug}.git`, CREDENTIALS),
    }));
    const config = { ...env.config([{ name: 'Hello', slug: 'hello', components }]), database: `${name}.sqlite`, repos_dir: `${env.root}/repos-${name}` };
    const file = `${env.root}/${name}.sqlite`;
    const store = await openStore(file);
    await store.write((tx) => applyConfig(tx, config));
    return { store, config, file };
  }

  const sync = async (store: Store, config: Config, slug: string, known?: KnownStrings) => {
    const project = config.projects[0]!;
    const result = await syncComponent(await resolveComponent(store, config, project, project.components.find((c) => c.slug === slug)!), { known });
    expect(result.ok).toBe(true);
  };

  const flagged = (store: Store) =>
    sqlOn(store).rows(
      `SELECT c.slug, u.source FROM checks k JOIN units u ON u.id = k.unit_id JOIN translations t ON t.id = u.translation_id
       JOIN components c ON c.id = t.component_id WHERE k.name = 'inconsistent' ORDER BY c.slug, u.source`,
    );
  const BOTH = [
    { slug: 'b', source: 'Shared' },
    { slug: 'c', source: 'Shared' },
  ];

  it('a run that nothing else writes to reads each language once and flags what syncing one by one flags', async () => {
    const { store, config } = await fresh();
    try {
      const known = new KnownStrings();
      await syncProject(store, config, 'hello', undefined, { known, threads: 1 });
      expect(await flagged(store)).toEqual(BOTH);
      // German, read by a's refresh; b's and c's strings recorded in it as they were synced
      expect({ reads: known.reads, dropped: known.dropped }).toEqual({ reads: 1, dropped: 0 });
    } finally {
      await store.close();
    }
  });

  it.each([
    ['another connection', true],
    ['this connection, outside the run', false],
  ])('a write by %s between two of the run’s transactions drops what the run knew', async (_, otherConnection) => {
    const { store, config, file } = await fresh();
    try {
      const known = new KnownStrings();
      // the run's first transaction reads the German strings: a's alone
      await sync(store, config, 'a', known);
      expect(known.reads).toBe(1);
      // b's strings written by someone else
      const other = otherConnection ? await openStore(file) : store;
      try {
        await sync(other, config, 'b');
      } finally {
        if (other !== store) await other.close();
      }
      // c's refresh must see b's copy of the string they share
      await sync(store, config, 'c', known);
      expect(known.dropped).toBe(1);
      expect(await flagged(store)).toEqual(BOTH);
    } finally {
      await store.close();
    }
  });

  it('keeps a string as a hash of its context and source, the two apart', () => {
    expect(stringHash({ context: 'ab', source: 'c' })).not.toBe(stringHash({ context: 'a', source: 'bc' }));
    expect(stringHash({ context: 'Main', source: 'Shared' })).toBe(stringHash({ context: 'Main', source: 'Shared' }));
  });

  it('a transaction that failed leaves nothing known to the next', async () => {
    const { store, config } = await fresh();
    try {
      await sync(store, config, 'b');
      const known = new KnownStrings();
      const project = Number(await sqlOn(store).value("SELECT id FROM projects WHERE slug = 'hello'"));
      const german = Number(await sqlOn(store).value("SELECT id FROM languages WHERE code = 'de'"));
      await known.write(store, async () => {});
      // read while b's copy of the shared string is deleted, then rolled back: b still has it
      await expect(
        known.write(store, async (tx) => {
          await tx.prepare("DELETE FROM units WHERE source = 'Shared'").run();
          await known.ofLanguage(tx, project, german);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      await sync(store, config, 'c', known);
      expect(known.dropped).toBe(1);
      expect(await flagged(store)).toEqual(BOTH);
    } finally {
      await store.close();
    }
  });
});
