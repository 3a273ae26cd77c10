// `npm run bench:checks`: cold sync of the KeePassXC corpus with and without quality checks, an edit's time with
// checks, and how many strings fail each check.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Config, parseConfig } from '../src/config/config.js';
import { State } from '../src/domain/unit.js';
import { editUnit } from '../src/operations/index.js';
import { openStore } from '../src/store/index.js';
import type { SqliteStore } from '../src/store/sqlite-store.js';
import { createUser } from '../src/store/users.repo.js';
import { applyConfig } from '../src/sync/config.js';
import { syncProject } from '../src/sync/index.js';
import { createUpstream, tempDir } from '../test/helpers/git-repo.js';
import { sqlOn } from '../test/helpers/store.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = process.env.TMS_CORPUS ?? path.resolve(root, '..', 'shared', 'corpus');
const source = path.join(corpus, 'keepassxreboot-keepassxc', 'share', 'translations');
if (!existsSync(source)) {
  console.log(`bench:checks: the KeePassXC corpus is not at ${source}; set TMS_CORPUS. Nothing measured.`);
  process.exit(0);
}
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const work = await tempDir('tms-bench-checks-');
const files = Object.fromEntries(
  readdirSync(source)
    .filter((n) => /^keepassxc_.*\.ts$/.test(n))
    .map((n) => [`share/translations/${n}`, readFileSync(path.join(source, n))]),
);
await createUpstream({ dir: path.join(work, 'upstream', 'keepassxc.git'), files });
const upstream = path.join(work, 'upstream', 'keepassxc.git');

function configFor(name: string, checkFlags: string): Config {
  const component = {
    name: 'KeePassXC',
    slug: 'keepassxc',
    repo: upstream,
    branch: 'main',
    filemask: 'share/translations/keepassxc_*.ts',
    file_format: 'ts',
    source_language: 'en',
    check_flags: checkFlags,
  };
  return parseConfig(
    JSON.stringify({ database: `${name}.sqlite`, repos_dir: `repos-${name}`, projects: [{ name: 'KeePassXC', slug: 'keepassxc', components: [component] }] }),
    path.join(work, 'tms.config.json'),
  );
}

/** A cold sync into a fresh store (the working copy is cloned first, untimed); returns seconds and units. */
async function cold(name: string, checkFlags: string) {
  const config = configFor(name, checkFlags);
  const store = await openStore(config.database);
  await store.write((tx) => applyConfig(tx, config));
  const { updateWorkingCopy } = await import('../src/sync/working-copy.js');
  await updateWorkingCopy(config.projects[0]!.components[0]!, path.join(config.repos_dir, 'keepassxc', 'keepassxc'), {});
  const t = performance.now();
  const [result] = await syncProject(store, config, 'keepassxc', undefined, { force: true });
  const seconds = (performance.now() - t) / 1000;
  if (!result?.ok) throw new Error(result?.error);
  return { store, seconds, units: result.added };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const without: number[] = [];
const withChecks: number[] = [];
let units = 0;
// alternate the two so that machine noise hits both alike
for (let i = 0; i < RUNS; i++) {
  const off = await cold(`off-${i}`, 'ignore-all-checks');
  without.push(off.seconds);
  await off.store.close();
  const on = await cold(`on-${i}`, '');
  withChecks.push(on.seconds);
  units = on.units;
  if (i < RUNS - 1) await on.store.close();
}
const ratio = median(withChecks) / median(without);
console.log(
  `cold sync, ${units} units, median of ${RUNS}: without checks ${(median(without) * 1000).toFixed(0)} ms, with checks ${(median(withChecks) * 1000).toFixed(0)} ms, ratio ${ratio.toFixed(2)} (target ≤ 1.30)`,
);

// counts per check with Weblate's defaults for Qt TS (no format flag), then with the Qt format flags
const last = await openStore(path.join(work, `on-${RUNS - 1}.sqlite`));
const counts = async (store: typeof last) =>
  (await sqlOn(store).rows('SELECT name, count(*) AS n FROM checks GROUP BY name ORDER BY n DESC')) as { name: string; n: number }[];
console.log(`failing per check (defaults): ${(await counts(last)).map((c) => `${c.name} ${c.n}`).join(', ')}`);
const qt = await cold('qt', 'qt-format, qt-plural-format');
console.log(`failing per check (qt-format, qt-plural-format): ${(await counts(qt.store)).map((c) => `${c.name} ${c.n}`).join(', ')}`);

// edit time with checks: translate strings of the German file back and forth, through editUnit (server time);
// 400 edits with SQLite's own checkpoints (run inside whichever write crosses the threshold), then 400 with the
// checkpoint thread `tms serve` starts; each batch starts from an emptied write-ahead log
const user = await qt.store.write((tx) => createUser(tx, { username: 'bench' }));
const ids = (await sqlOn(qt.store).rows(`SELECT u.id, u.target FROM units u JOIN translations t ON t.id = u.translation_id
     WHERE t.language_code = 'de' AND u.state = 20 AND instr(u.source, char(30,30)) = 0 LIMIT 800`)) as { id: number; target: string }[];
for (const [label, batch] of [
  ['SQLite checkpoints in the writes', ids.slice(0, 400)],
  ['checkpoint thread (tms serve)', ids.slice(400)],
] as const) {
  (qt.store as SqliteStore).db.pragma('wal_checkpoint(TRUNCATE)');
  if (label.startsWith('checkpoint thread')) {
    qt.store.checkpointInBackground();
    // the thread has started (as it has long before any edit in a server)
    await new Promise((r) => setTimeout(r, 1500));
  }
  const times: number[] = [];
  for (const [i, u] of batch.entries()) {
    const t = performance.now();
    await editUnit(qt.store, { unitId: u.id, target: [i % 2 ? `${u.target}.` : `${u.target} `], state: State.TRANSLATED, user: { id: user.user.id } });
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(
    `editUnit with checks, ${times.length} edits, ${label}: p50 ${times[Math.floor(times.length / 2)]!.toFixed(2)} ms, p95 ${times[Math.floor(times.length * 0.95)]!.toFixed(2)} ms, max ${times.at(-1)!.toFixed(2)} ms (target ≤ 2 ms)`,
  );
}
await qt.store.close();
await last.close();
