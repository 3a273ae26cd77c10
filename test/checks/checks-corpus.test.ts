// Quality checks over the whole KeePassXC corpus (one Qt TS component, every language): a sync with checks on,
// and the stored counts of a few checks against a separate, simpler computation over the stored strings.
import { readFileSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/config.js';
import { PLURAL_SEPARATOR } from '../../src/domain/unit.js';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { applyConfig } from '../../src/sync/config.js';
import { syncProject } from '../../src/sync/index.js';
import { describeCorpus } from '../helpers/corpus.js';
import { createUpstream, tempDir } from '../helpers/git-repo.js';
import { sqlOn } from '../helpers/store.js';

describeCorpus('quality checks on the KeePassXC corpus', (corpus) => {
  const source = path.join(corpus, 'keepassxreboot-keepassxc', 'share', 'translations');
  let store: Store;
  let work: string;
  let units = 0;
  type Row = { source: string; target: string; state: number; is_source: number; language: string };
  let rows: Row[];

  beforeAll(async () => {
    work = await tempDir('tms-checks-corpus-');
    const files = Object.fromEntries(
      readdirSync(source)
        .filter((n) => /^keepassxc_.*\.ts$/.test(n))
        .map((n) => [`share/translations/${n}`, readFileSync(path.join(source, n))]),
    );
    const upstream = path.join(work, 'upstream', 'keepassxc.git');
    await createUpstream({ dir: upstream, files });
    const component = {
      name: 'KeePassXC',
      slug: 'keepassxc',
      repo: upstream,
      branch: 'main',
      filemask: 'share/translations/keepassxc_*.ts',
      file_format: 'ts',
      source_language: 'en',
    };
    const config = parseConfig(
      JSON.stringify({ database: 'tms.sqlite', repos_dir: 'repos', projects: [{ name: 'KeePassXC', slug: 'keepassxc', components: [component] }] }),
      path.join(work, 'tms.config.json'),
    );
    store = await openStore(config.database);
    await store.write((tx) => applyConfig(tx, config));
    const [result] = await syncProject(store, config, 'keepassxc');
    if (!result?.ok) throw new Error(`sync failed: ${result?.error}`);
    units = result.added;
    rows = (await sqlOn(
      store,
    ).rows(`SELECT u.source, u.target, u.state, t.is_source, l.code AS language FROM units u JOIN translations t ON t.id = u.translation_id
         JOIN languages l ON l.id = t.language_id`)) as Row[];
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  const stored = async (name: string) => ((await sqlOn(store).row('SELECT count(*) AS n FROM checks WHERE name = ?', name)) as { n: number }).n;
  // translation checks look at every non-empty, not read-only string of a translation
  const checked = () => rows.filter((r) => r.is_source === 0 && r.state > 0 && r.state < 100);
  const forms = (r: Row) => r.target.split(PLURAL_SEPARATOR);

  it('syncs every string, each with its checks', async () => {
    expect(units).toBe(69_755);
    // the sync counts the translations' strings; the source translation holds each string once more
    expect(rows.filter((r) => r.is_source === 0).length).toBe(units);
    expect(rows.filter((r) => r.is_source === 1).length).toBe(2243);
    // every translation's failing count is the number of its strings with an active failing check
    const failing = (await sqlOn(store).row('SELECT coalesce(sum(failing), 0) AS n FROM translation_stats')) as { n: number };
    const withChecks = (await sqlOn(store).row('SELECT count(DISTINCT unit_id) AS n FROM checks WHERE dismissed = 0')) as { n: number };
    expect(failing.n).toBe(withChecks.n);
    // one component: no string has another translation in the project to disagree with
    expect(await stored('inconsistent')).toBe(0);
  });

  it('ellipsis and optional_plural: source strings with "..." and with "(s)" outside plurals', async () => {
    const sources = rows.filter((r) => r.is_source === 1);
    const ellipsis = sources.filter((r) => r.source.split(PLURAL_SEPARATOR)[0]!.includes('...')).length;
    const optional = sources.filter((r) => !r.source.includes(PLURAL_SEPARATOR) && /\(s\)(\W|$)/u.test(r.source)).length;
    expect([await stored('ellipsis'), await stored('optional_plural')]).toEqual([ellipsis, optional]);
    expect([ellipsis, optional]).toEqual([6, 5]);
  });

  it('double_space and zero-width-space: what a translated form has and its source has not', async () => {
    const double = checked().filter((r) => {
      const s = r.source;
      return forms(r).some((t) => !(s.length <= 1 && t.length <= 1) && s !== '' && t !== '' && !s.includes('  ') && t.includes('  '));
    }).length;
    const zeroWidth = checked().filter((r) => r.language !== 'km' && !r.source.includes('\u200b') && forms(r).some((t) => t.includes('\u200b'))).length;
    expect([await stored('double_space'), await stored('zero-width-space')]).toEqual([double, zeroWidth]);
    expect([double, zeroWidth]).toEqual([107, 1]);
  });

  it('same_plurals: plural strings whose forms are all the same non-empty text', async () => {
    const same = checked().filter((r) => {
      const f = forms(r);
      return f.length > 1 && f[0] !== '' && f.every((x) => x === f[0]);
    }).length;
    expect(await stored('same_plurals')).toBe(same);
    expect(same).toBe(264);
  });
});
