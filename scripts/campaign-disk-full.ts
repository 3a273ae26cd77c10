// Campaign disk-full: ENOSPC injected at the fs boundary (scripts/campaign/enospc.ts, loaded with --import) after a
// random number of writes into the working copy during a commit of pending edits (and its push). Each time: a clear
// error, every edit still pending or committed, the database intact, and once space is back the next commit and push
// succeed with every acknowledged edit upstream. DISK_TRIALS (default 10); KeePassXC corpus when present.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openComponent } from '../src/component/handle.js';
import { type Config, loadConfig } from '../src/config/config.js';
import { PLURAL_SEPARATOR } from '../src/domain/unit.js';
import { commitPending, editUnit, pushComponent } from '../src/operations/index.js';
import { findEditableUnit } from '../src/store/edits.repo.js';
import { type Store, inspectDatabase, openStore } from '../src/store/index.js';
import { componentTranslations } from '../src/store/translations.repo.js';
import { translationUnits } from '../src/store/units.repo.js';
import { createUser, findUserByUsername } from '../src/store/users.repo.js';
import { applyConfig } from '../src/sync/config.js';
import { syncComponent } from '../src/sync/index.js';
import { createUpstream, gitCli } from '../test/helpers/git-repo.js';
import { Campaign, envNumber } from './campaign/lib.js';

const self = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(self), '..');
const injector = path.join(path.dirname(self), 'campaign', 'enospc.ts');

/** Files of length 0 under a .git folder (what a write cut short by a full disk leaves). */
function emptyObjects(gitdir: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && statSync(p).size === 0 && !e.name.endsWith('.lock')) out.push(path.relative(gitdir, p));
    }
  };
  walk(gitdir);
  return out;
}

const handleOf = (store: Store, config: Config) => openComponent(store, config, config.projects[0]!, config.projects[0]!.components[0]!);

/** The child: one commit (and push, per push_on_commit) with the disk filling up under it. */
async function child(configFile: string): Promise<void> {
  const config = loadConfig(configFile);
  const store = await openStore(config.database);
  let out: { result: boolean; detail?: string; threw?: string };
  try {
    out = await commitPending(await handleOf(store, config));
  } catch (e) {
    out = { result: false, threw: (e as Error).stack };
  }
  await store.close();
  process.stdout.write(`${JSON.stringify({ result: out.result, detail: out.detail, threw: out.threw })}\n`);
}

async function runChild(configFile: string, dir: string, after: number): Promise<{ result: boolean; detail?: string; threw?: string; writes: number }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', '--import', injector, self, 'child', configFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // the git work on the calling thread, where the injector patched fs
    env: { ...process.env, TMS_GIT_WORKER: '0', TMS_ENOSPC_DIR: dir, TMS_ENOSPC_AFTER: String(after) },
  });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (d) => {
    stdout += d;
  });
  proc.stderr.on('data', (d) => {
    stderr += d;
  });
  const code = await new Promise<number | null>((resolve) => proc.once('exit', resolve));
  const writes = Number(/enospc: writes=(\d+)/.exec(stderr)?.[1] ?? 0);
  const line = stdout.trim().split('\n').pop() ?? '';
  if (!line.startsWith('{')) return { result: false, threw: `the child exited ${code}: ${stderr.slice(-1500)}`, writes };
  return { ...(JSON.parse(line) as { result: boolean; detail?: string }), writes };
}

async function main(): Promise<number> {
  const campaign = new Campaign('disk-full');
  const trials = envNumber('DISK_TRIALS', 10);
  const work = path.join(os.tmpdir(), `tms-campaign-disk-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  const corpus = path.join(process.env.TMS_CORPUS ?? path.resolve(root, '..', 'shared', 'corpus'), 'keepassxreboot-keepassxc', 'share', 'translations');
  const files: Record<string, Uint8Array> = {};
  if (existsSync(corpus)) {
    for (const n of readdirSync(corpus).filter((n) => /^keepassxc_.*\.ts$/.test(n))) files[`share/translations/${n}`] = readFileSync(path.join(corpus, n));
  } else {
    for (const lang of ['de', 'cs'])
      files[`share/translations/keepassxc_${lang}.ts`] = readFileSync(path.join(root, 'fixtures', 'demo', 'app', 'translations', `app_${lang}.ts`));
  }
  const upstream = path.join(work, 'upstream', 'keepassxc.git');
  await createUpstream({ dir: upstream, files });
  const configFile = path.join(work, 'tms.config.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      database: 'tms.sqlite',
      repos_dir: 'repos',
      projects: [
        {
          name: 'K',
          slug: 'k',
          components: [{ name: 'K', slug: 'k', repo: upstream, branch: 'main', filemask: 'share/translations/keepassxc_*.ts', file_format: 'ts' }],
        },
      ],
    }),
  );
  const config = loadConfig(configFile);
  const wc = path.join(config.repos_dir, 'k', 'k');
  const ledger = new Map<number, { target: string; filename: string }>();
  let n = 0;
  const withStore = async <T>(fn: (store: Store) => Promise<T>): Promise<T> => {
    const store = await openStore(config.database);
    try {
      await store.write((tx) => applyConfig(tx, config));
      return await fn(store);
    } finally {
      await store.close();
    }
  };
  const edit = (count: number) =>
    withStore(async (store) => {
      const h = await handleOf(store, config);
      const user = (await store.read((tx) => findUserByUsername(tx, 'campaign')))!;
      const translations = (await store.read((tx) => componentTranslations(tx, h.row.id))).filter((t) => !t.is_source).slice(0, 10);
      for (const t of translations) {
        const units = (await store.read((tx) => translationUnits(tx, t.id))).filter((u) => u.state !== 100 && !u.source.includes(PLURAL_SEPARATOR));
        for (let i = 0; i < Math.ceil(count / translations.length) && units.length > 0; i++) {
          const unit = units[(n * 31 + i) % units.length]!;
          const target = `disk-${++n}`;
          await editUnit(store, { unitId: unit.id, target: [target], state: 20, user: { id: user.id } });
          ledger.set(unit.id, { target, filename: t.filename });
          campaign.count('edits_acknowledged');
        }
      }
    });
  const checkLedger = async (store: Store, refs: { repo: string; ref: string }[], when: string) => {
    let lost = 0;
    const texts = new Map<string, string>();
    for (const [id, { target, filename }] of ledger) {
      const unit = await store.read((tx) => findEditableUnit(tx, id));
      if (unit?.pending && unit.target === target) continue;
      let found = false;
      for (const { repo, ref } of refs) {
        const key = `${repo}:${ref}:${filename}`;
        if (!texts.has(key)) texts.set(key, await gitCli(repo, ['show', `${ref}:${filename}`]).catch(() => ''));
        if (texts.get(key)!.includes(`>${target}<`)) found = true;
      }
      if (!found) lost++;
    }
    campaign.count('edit_checks', ledger.size);
    if (lost > 0) campaign.violate(`${when}: ${lost} acknowledged edits neither pending nor committed`);
  };

  try {
    await withStore(async (store) => {
      await store.write((tx) => createUser(tx, { username: 'campaign', email: 'campaign@example.org' }));
      const r = await syncComponent(await handleOf(store, config));
      if (!r.ok) throw new Error(`setup sync failed: ${r.error}`);
    });
    // an undisturbed commit counts the writes: the disk fills up at a random one of them
    await edit(200);
    const calibration = await runChild(configFile, wc, -1);
    if (!calibration.result) campaign.violate(`the undisturbed commit failed: ${calibration.detail ?? calibration.threw}`);
    campaign.note(`an undisturbed commit (and push) of 200 edits makes ${calibration.writes} writes into the working copy`);
    const details = new Map<string, number>();
    for (let trial = 1; trial <= trials; trial++) {
      await edit(200);
      const after = Math.floor(Math.random() * Math.max(1, calibration.writes));
      const full = await runChild(configFile, wc, after);
      campaign.count('trials');
      if (full.threw) campaign.violate(`trial ${trial} (full after ${after} writes): the commit threw: ${full.threw.split('\n')[0]}`);
      else if (full.result) campaign.count('committed_anyway');
      else {
        const reason = (full.detail ?? '').replace(/\n/g, ' | ');
        const key = reason
          .replace(/'[^']*'/g, "'…'")
          .replace(/\d+/g, 'N')
          .slice(0, 160);
        details.set(key, (details.get(key) ?? 0) + 1);
        if (!/ENOSPC|no space left/i.test(reason)) campaign.violate(`trial ${trial}: the error does not say the disk is full: ${reason.slice(0, 300)}`);
      }
      const empty = emptyObjects(path.join(wc, '.git'));
      if (empty.length > 0)
        campaign.note(`trial ${trial} (full after ${after} writes): ${empty.length} empty file(s) in .git: ${empty.slice(0, 3).join(', ')}`);
      const db = inspectDatabase(config.database);
      if (!db.ok) campaign.violate(`trial ${trial}: integrity_check: ${db.problems.join('; ')}`);
      await withStore(async (store) => {
        await checkLedger(
          store,
          [
            { repo: wc, ref: 'HEAD' },
            { repo: upstream, ref: 'main' },
          ],
          `trial ${trial} (disk full)`,
        );
        // space is back: the next commit and push succeed, with no manual step
        const again = await commitPending(await handleOf(store, config));
        if (!again.result) campaign.violate(`trial ${trial}: the commit once space was back failed: ${again.detail}`);
        const pushed = await pushComponent(await handleOf(store, config));
        if (!pushed.result) campaign.violate(`trial ${trial}: the push once space was back failed: ${pushed.detail}`);
        const sync = await syncComponent(await handleOf(store, config));
        if (!sync.ok) campaign.violate(`trial ${trial}: the sync once space was back failed: ${sync.error}`);
        await checkLedger(store, [{ repo: upstream, ref: 'main' }], `trial ${trial} (space back)`);
      });
      try {
        await gitCli(wc, ['fsck', '--no-dangling', '--no-progress']);
      } catch (e) {
        campaign.violate(`trial ${trial}: git fsck of the working copy: ${(e as Error).message.split('\n').slice(0, 3).join(' | ')}`);
      }
    }
    for (const [reason, count] of details) campaign.note(`error seen ${count}×: ${reason}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return campaign.finish({ edits: ledger.size });
}

if (process.argv[2] === 'child') await child(process.argv[3]!);
else process.exitCode = await main();
