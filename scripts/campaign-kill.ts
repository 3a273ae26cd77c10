// Campaign kill: kill -9 at a random point of a cold sync, a re-sync, a commit of 1,000 pending edits, a push, a pull
// with a rebase and an upload, on the KeePassXC corpus (70k units) served over loopback smart HTTP. After each kill:
// PRAGMA integrity_check ok, the next sync and repository operation succeed with no manual step, and every
// acknowledged edit is upstream, committed, or still pending. KILL_TRIALS per phase (default 2), KILL_PHASES
// (comma-separated, default all), TMS_CORPUS (else ../shared/corpus; without it the demo's Qt TS files stand in).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { openComponent } from '../src/component/handle.js';
import { type Config, loadConfig } from '../src/config/config.js';
import { PLURAL_SEPARATOR } from '../src/domain/unit.js';
import { commitPending, editUnit, pullComponent, pushComponent, uploadTranslation } from '../src/operations/index.js';
import { findEditableUnit } from '../src/store/edits.repo.js';
import { type Store, inspectDatabase, openStore } from '../src/store/index.js';
import { componentTranslations } from '../src/store/translations.repo.js';
import { translationUnits } from '../src/store/units.repo.js';
import { createUser, findUserByUsername } from '../src/store/users.repo.js';
import { applyConfig } from '../src/sync/config.js';
import { syncComponent } from '../src/sync/index.js';
import { commitToUpstream, createUpstream, gitCli } from '../test/helpers/git-repo.js';
import { startGitServer } from '../test/helpers/git-server.js';
import { Campaign, envNumber } from './campaign/lib.js';

const self = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(self), '..');
const PHASES = ['cold-sync', 'resync', 'commit', 'push', 'pull', 'upload'] as const;
type Phase = (typeof PHASES)[number];
const UPLOAD_LANGUAGE = 'de';
const UPSTREAM_LANGUAGE = 'fr';

async function handleOf(store: Store, config: Config) {
  const project = config.projects[0]!;
  return openComponent(store, config, project, project.components[0]!);
}

/** The child: one operation, from "go" to "done"; the parent kills it somewhere in between. */
async function child(phase: Phase, configFile: string, uploadFile: string): Promise<void> {
  const config = loadConfig(configFile);
  const store = await openStore(config.database);
  await store.write((tx) => applyConfig(tx, config));
  const h = await handleOf(store, config);
  const user = (await store.read((tx) => findUserByUsername(tx, 'campaign')))!;
  process.stdout.write('go\n');
  let ok = true;
  let detail = '';
  if (phase === 'cold-sync' || phase === 'resync') {
    const r = await syncComponent(h);
    ok = r.ok;
    detail = r.error ?? '';
  } else if (phase === 'commit') {
    const r = await commitPending(h, { user: { id: user.id } });
    ok = r.result;
    detail = r.detail ?? '';
  } else if (phase === 'push') {
    const r = await pushComponent(h, { user: { id: user.id } });
    ok = r.result;
    detail = r.detail ?? '';
  } else if (phase === 'pull') {
    const r = await pullComponent(h, { user: { id: user.id } });
    ok = r.result;
    detail = r.detail ?? '';
  } else if (phase === 'upload') {
    const r = await uploadTranslation(h, UPLOAD_LANGUAGE, {
      bytes: readFileSync(uploadFile),
      method: 'translate',
      conflicts: 'replace-translated',
      user: { id: user.id },
    });
    ok = r.accepted > 0;
    detail = JSON.stringify(r);
  }
  await store.close();
  process.stdout.write(`done ${ok ? 'ok' : 'failed'} ${detail.replace(/\n/g, ' | ')}\n`);
  process.exit(0);
}

/** Runs the child and kills it `delayMs` after it said "go" (never, when null). Returns how it ended and how long it ran. */
async function runChild(phase: Phase, configFile: string, uploadFile: string, delayMs: number | null): Promise<{ killed: boolean; ms: number; line: string }> {
  const proc: ChildProcess = spawn(process.execPath, ['--import', 'tsx', self, 'child', phase, configFile, uploadFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr!.on('data', (d) => {
    stderr += d;
  });
  let started = 0;
  let line = '';
  let killed = false;
  const lines = createInterface({ input: proc.stdout! });
  lines.on('line', (l) => {
    if (l === 'go') {
      started = performance.now();
      if (delayMs !== null) {
        setTimeout(() => {
          if (proc.exitCode === null && proc.signalCode === null) {
            killed = proc.kill('SIGKILL');
          }
        }, delayMs);
      }
    } else if (l.startsWith('done')) line = l;
  });
  const code = await new Promise<number | null>((resolve) => proc.once('exit', (c) => resolve(c)));
  if (!killed && code !== 0) throw new Error(`child ${phase} exited ${code}: ${stderr.slice(-2000)}`);
  return { killed: killed && !line, ms: started ? performance.now() - started : 0, line };
}

/** The latest acknowledged text of each edited unit, and the file it belongs to. */
type Ledger = Map<number, { target: string; filename: string }>;

async function fileAt(repo: string, ref: string, file: string): Promise<string> {
  try {
    return await gitCli(repo, ['show', `${ref}:${file}`]);
  } catch {
    return '';
  }
}

/** Every acknowledged edit is pending in the store with its text, or in the file at one of `refs`. */
async function checkLedger(campaign: Campaign, store: Store, ledger: Ledger, refs: { repo: string; ref: string }[], when: string): Promise<void> {
  const files = new Map<string, string>();
  let lost = 0;
  for (const [unitId, { target, filename }] of ledger) {
    const unit = await store.read((tx) => findEditableUnit(tx, unitId));
    if (unit?.pending && unit.target === target) continue;
    let found = false;
    for (const { repo, ref } of refs) {
      const key = `${repo} ${ref} ${filename}`;
      if (!files.has(key)) files.set(key, await fileAt(repo, ref, filename));
      if (files.get(key)!.includes(`>${target}<`)) {
        found = true;
        break;
      }
    }
    if (!found) {
      lost++;
      if (lost <= 3) campaign.violate(`${when}: acknowledged edit of unit ${unitId} (${JSON.stringify(target)}) is neither pending nor in ${filename}`);
    }
  }
  campaign.count('edits_checked', ledger.size);
  if (lost > 3) campaign.violate(`${when}: ${lost} acknowledged edits lost in all`);
}

async function main(): Promise<number> {
  const campaign = new Campaign('kill');
  const trials = envNumber('KILL_TRIALS', 2);
  const phases = (process.env.KILL_PHASES?.split(',') ?? [...PHASES]) as Phase[];
  const corpus = process.env.TMS_CORPUS ?? path.resolve(root, '..', 'shared', 'corpus');
  const keepass = path.join(corpus, 'keepassxreboot-keepassxc', 'share', 'translations');
  const work = path.join(os.tmpdir(), `tms-campaign-kill-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  const files: Record<string, Uint8Array> = {};
  let dataset: string;
  if (existsSync(keepass)) {
    for (const name of readdirSync(keepass).filter((n) => /^keepassxc_.*\.ts$/.test(n)))
      files[`share/translations/${name}`] = readFileSync(path.join(keepass, name));
    dataset = 'keepassxc';
  } else {
    // the demo's German file under a few language names: enough for edits, an upload and upstream changes apart
    const demo = readFileSync(path.join(root, 'fixtures', 'demo', 'app', 'translations', 'app_de.ts'));
    for (const lang of ['de', 'cs', 'fr', 'it', 'pl', 'ja']) files[`share/translations/keepassxc_${lang}.ts`] = demo;
    dataset = 'demo (no corpus)';
  }
  const upstream = path.join(work, 'upstream', 'keepassxc.git');
  await createUpstream({ dir: upstream, files });
  const server = await startGitServer({ root: path.join(work, 'upstream') });
  const configFile = path.join(work, 'tms.config.json');
  const component = {
    name: 'KeePassXC',
    slug: 'keepassxc',
    repo: server.url('keepassxc.git'),
    branch: 'main',
    filemask: 'share/translations/keepassxc_*.ts',
    file_format: 'ts',
    source_language: 'en',
    push_on_commit: false,
  };
  writeFileSync(
    configFile,
    JSON.stringify({ database: 'tms.sqlite', repos_dir: 'repos', projects: [{ name: 'KeePassXC', slug: 'keepassxc', components: [component] }] }),
  );
  const config = loadConfig(configFile);
  const wc = path.join(config.repos_dir, 'keepassxc', 'keepassxc');
  const uploadFile = path.join(work, 'upload.ts');
  const ledger: Ledger = new Map();
  let units = 0;
  let editCounter = 0;
  const killTimes: string[] = [];

  /** Opens the store, runs `work`, closes it (the children never share a connection with the parent). */
  const withStore = async <T>(fn: (store: Store) => Promise<T>): Promise<T> => {
    const store = await openStore(config.database);
    try {
      await store.write((tx) => applyConfig(tx, config));
      return await fn(store);
    } finally {
      await store.close();
    }
  };

  /** n acknowledged edits, spread over up to 10 translations that neither the upload nor upstream touches. */
  const makeEdits = (n: number, tag: string) =>
    withStore(async (store) => {
      const h = await handleOf(store, config);
      const user = (await store.read((tx) => findUserByUsername(tx, 'campaign')))!;
      const translations = (await store.read((tx) => componentTranslations(tx, h.row.id))).filter(
        (t) => !t.is_source && t.language_code !== UPLOAD_LANGUAGE && t.language_code !== UPSTREAM_LANGUAGE,
      );
      const chosen = translations.slice(0, 10);
      const perFile = Math.ceil(n / chosen.length);
      let made = 0;
      for (const t of chosen) {
        const candidates = (await store.read((tx) => translationUnits(tx, t.id))).filter((u) => u.state !== 100 && !u.source.includes(PLURAL_SEPARATOR));
        for (let i = 0; i < perFile && made < n && candidates.length > 0; i++) {
          const unit = candidates[(editCounter * 7 + i * 13) % candidates.length]!;
          const target = `${tag}-${++editCounter}`;
          await editUnit(store, { unitId: unit.id, target: [target], state: 20, user: { id: user.id } });
          ledger.set(unit.id, { target, filename: t.filename });
          made++;
        }
      }
      campaign.count('edits_acknowledged', made);
    });

  /** An upstream commit changing `count` strings of the language nobody edits in tms. */
  const upstreamChange = async (tag: string, count: number) => {
    const file = `share/translations/keepassxc_${UPSTREAM_LANGUAGE}.ts`;
    const text = (await gitCli(upstream, ['show', `main:${file}`])).toString();
    let n = 0;
    const changed = text.replace(/<translation>([^<]+)<\/translation>/g, (all) => (n++ < count ? `<translation>${tag}-${n}</translation>` : all));
    await commitToUpstream(upstream, { [file]: changed }, { message: `upstream ${tag}` });
  };

  const recover = async (phase: Phase, trial: number, pushToo: boolean) => {
    const when = `${phase} trial ${trial}`;
    const check = inspectDatabase(config.database);
    campaign.count('integrity_checks');
    if (!check.ok) campaign.violate(`${when}: integrity_check: ${check.problems.join('; ')}`);
    await withStore(async (store) => {
      const h = await handleOf(store, config);
      const sync = await syncComponent(h);
      campaign.count('recovery_syncs');
      if (!sync.ok) campaign.violate(`${when}: the next sync failed: ${sync.error}`);
      const commit = await commitPending(h, {});
      if (!commit.result) campaign.violate(`${when}: the next commit failed: ${commit.detail}`);
      if (pushToo) {
        const pushed = await pushComponent(await handleOf(store, config), {});
        if (!pushed.result) campaign.violate(`${when}: the next push failed: ${pushed.detail}`);
      }
      campaign.count('recovery_operations');
      const translations = await store.read((tx) => componentTranslations(tx, h.row.id));
      let count = 0;
      for (const t of translations) count += (await store.read((tx) => translationUnits(tx, t.id))).length;
      if (units && count !== units) campaign.violate(`${when}: ${count} units after recovery, ${units} before`);
      units ||= count;
      await checkLedger(
        campaign,
        store,
        ledger,
        [
          { repo: wc, ref: 'HEAD' },
          { repo: upstream, ref: 'main' },
        ],
        when,
      );
    });
    try {
      await gitCli(wc, ['fsck', '--no-dangling', '--no-progress']);
      campaign.count('fsck_ok');
    } catch (e) {
      campaign.violate(`${when}: git fsck of the working copy: ${(e as Error).message.split('\n').slice(0, 3).join(' | ')}`);
    }
    for (const leftover of ['index.lock', 'HEAD.lock', 'shallow.lock']) {
      if (existsSync(path.join(wc, '.git', leftover))) campaign.note(`${when}: .git/${leftover} left behind (recovered anyway)`);
    }
  };

  try {
    await withStore(async (store) => {
      await store.write((tx) => createUser(tx, { username: 'campaign', email: 'campaign@example.org', fullName: 'Campaign' }));
    });
    for (const phase of phases) {
      // one undisturbed run measures how long the operation takes: kills land uniformly within it
      let duration = 0;
      for (let trial = 0; trial <= trials; trial++) {
        const calibrating = trial === 0;
        // prepare what the operation works on
        if (phase === 'cold-sync') {
          for (const f of ['tms.sqlite', 'tms.sqlite-wal', 'tms.sqlite-shm']) rmSync(path.join(work, f), { force: true });
          rmSync(config.repos_dir, { recursive: true, force: true });
          ledger.clear();
          await withStore(async (store) => {
            if (!(await store.read((tx) => findUserByUsername(tx, 'campaign'))))
              await store.write((tx) => createUser(tx, { username: 'campaign', email: 'campaign@example.org' }));
          });
        } else {
          if (!existsSync(path.join(wc, '.git'))) {
            await withStore(async (store) => {
              const r = await syncComponent(await handleOf(store, config));
              if (!r.ok) throw new Error(`setup sync failed: ${r.error}`);
            });
          }
          if (phase === 'resync') await upstreamChange(`resync${trial}`, 50);
          if (phase === 'commit') await makeEdits(1000, `c${trial}`);
          if (phase === 'push') {
            await makeEdits(200, `p${trial}`);
            await withStore(async (store) => {
              const r = await commitPending(await handleOf(store, config), {});
              if (!r.result) throw new Error(`setup commit failed: ${r.detail}`);
            });
          }
          if (phase === 'pull') {
            await makeEdits(100, `l${trial}`);
            await withStore(async (store) => {
              await commitPending(await handleOf(store, config), {});
            });
            await makeEdits(100, `m${trial}`);
            await upstreamChange(`pull${trial}`, 30);
          }
          if (phase === 'upload') {
            const text = (await gitCli(upstream, ['show', `main:share/translations/keepassxc_${UPLOAD_LANGUAGE}.ts`])).toString();
            let n = 0;
            writeFileSync(
              uploadFile,
              text.replace(/<translation( type="unfinished")?>([^<]*)<\/translation>/g, (all) =>
                n++ % 3 === 0 ? `<translation>u${trial}-${n}</translation>` : all,
              ),
            );
          }
        }
        // within the operation: runs after the first (cold) one are quicker, so the window shrinks to the quickest seen
        const delay = calibrating ? null : Math.random() * duration * 0.9;
        const run = await runChild(phase, configFile, uploadFile, delay);
        if (calibrating) {
          duration = run.ms;
          campaign.note(`${phase}: undisturbed run ${Math.round(run.ms)} ms (${run.line})`);
          if (!run.line.startsWith('done ok') && phase !== 'upload') campaign.violate(`${phase}: the undisturbed run failed: ${run.line}`);
        } else {
          campaign.count(run.killed ? 'kills' : 'finished_before_kill');
          if (!run.killed && run.ms > 0) duration = Math.min(duration, run.ms);
          if (run.killed) killTimes.push(`${phase}@${Math.round(delay!)}ms`);
        }
        campaign.count(`trials_${phase}`);
        await recover(phase, trial, phase === 'push' || phase === 'pull');
      }
    }
    // at the end everything acknowledged is pushed: upstream, or still pending (a kept conflict)
    await withStore(async (store) => {
      const h = await handleOf(store, config);
      await commitPending(h, {});
      const pushed = await pushComponent(await handleOf(store, config), {});
      if (!pushed.result) campaign.violate(`final push failed: ${pushed.detail}`);
      await checkLedger(campaign, store, ledger, [{ repo: upstream, ref: 'main' }], 'final');
    });
  } finally {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
  return campaign.finish({ dataset, units, trials_per_phase: trials });
}

if (process.argv[2] === 'child') await child(process.argv[3] as Phase, process.argv[4]!, process.argv[5]!);
else process.exitCode = await main();
