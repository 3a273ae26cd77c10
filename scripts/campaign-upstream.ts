import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
// Campaign upstream: what upstream can do to tms while it holds edits. History rewritten (force-push), the branch
// deleted, the repository unreachable (connection refused, cut mid-fetch), credentials revoked: each must give a
// clear, credential-free error (and the component's merge_failure), keep every edit, and recover with no manual step
// once upstream is back; at the end every acknowledged edit is upstream. UPSTREAM_ROUNDS (default 1) repeats it all.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openComponent } from '../src/component/handle.js';
import { loadConfig } from '../src/config/config.js';
import { PLURAL_SEPARATOR } from '../src/domain/unit.js';
import { commitPending, editUnit, pullComponent, pushComponent, repositoryStatus } from '../src/operations/index.js';
import { findEditableUnit } from '../src/store/edits.repo.js';
import { type Store, openStore } from '../src/store/index.js';
import { componentTranslations } from '../src/store/translations.repo.js';
import { translationUnits } from '../src/store/units.repo.js';
import { createUser, findUserByUsername } from '../src/store/users.repo.js';
import { applyConfig } from '../src/sync/config.js';
import { syncComponent } from '../src/sync/index.js';
import { commitToUpstream, createUpstream, gitCli } from '../test/helpers/git-repo.js';
import { startGitServer } from '../test/helpers/git-server.js';
import { Campaign, envNumber } from './campaign/lib.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CREDENTIALS = { username: 'translator', password: 'pa55-w0rd-s3cret' };

type Mode = 'pass' | 'refuse' | 'cut-fetch' | 'revoked';

/** A proxy in front of the git server that checks credentials and can misbehave on demand. */
async function startProxy(target: string): Promise<{ url: string; mode: Mode; close(): Promise<void> }> {
  const state = { mode: 'pass' as Mode };
  const expected = `Basic ${Buffer.from(`${CREDENTIALS.username}:${CREDENTIALS.password}`).toString('base64')}`;
  const server = http.createServer((req, res) => {
    if (state.mode === 'refuse') {
      req.socket.destroy();
      return;
    }
    if (state.mode === 'revoked' || req.headers.authorization !== expected) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"', 'Content-Type': 'text/plain' });
      res.end('authentication required\n');
      return;
    }
    const upstream = http.request(`${target}${req.url}`, { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      const cut = state.mode === 'cut-fetch' && (req.url ?? '').includes('git-upload-pack') && req.method === 'POST';
      let sent = 0;
      answer.on('data', (chunk: Buffer) => {
        if (cut && sent + chunk.length > 200) {
          // the connection drops in the middle of the pack
          res.write(chunk.subarray(0, Math.max(0, 200 - sent)));
          res.socket?.destroy();
          answer.destroy();
          return;
        }
        sent += chunk.length;
        res.write(chunk);
      });
      answer.on('end', () => res.end());
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get mode() {
      return state.mode;
    },
    set mode(m: Mode) {
      state.mode = m;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function main(): Promise<number> {
  const campaign = new Campaign('upstream');
  const rounds = envNumber('UPSTREAM_ROUNDS', 1);
  const work = path.join(os.tmpdir(), `tms-campaign-upstream-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  const bare = path.join(work, 'upstream', 'app.git');
  // two KeePassXC translations (about 2,000 strings each) when the corpus is there, else the demo's small files
  const corpus = path.join(process.env.TMS_CORPUS ?? path.resolve(root, '..', 'shared', 'corpus'), 'keepassxreboot-keepassxc', 'share', 'translations');
  if (existsSync(corpus)) {
    const files: Record<string, Uint8Array> = {};
    for (const lang of ['de', 'fr', 'cs']) files[`translations/app_${lang}.ts`] = readFileSync(path.join(corpus, `keepassxc_${lang}.ts`));
    await createUpstream({ dir: bare, files });
  } else {
    await createUpstream({ dir: bare, fixture: path.join(root, 'fixtures', 'demo', 'app') });
  }
  // UPSTREAM_DEPTH=N: a shallow working copy (`depth: N`) of an upstream with history beyond that depth
  const depth = envNumber('UPSTREAM_DEPTH', 0);
  for (let i = 1; depth > 0 && i <= depth + 1; i++) await commitToUpstream(bare, { 'HISTORY.md': `${i}\n` }, { message: `History ${i}` });
  const git = await startGitServer({ root: path.join(work, 'upstream') });
  const proxy = await startProxy(new URL(git.url('app.git')).origin);
  const configFile = path.join(work, 'tms.config.json');
  const component = {
    name: 'App',
    slug: 'app',
    repo: `${proxy.url}/app.git`,
    username: CREDENTIALS.username,
    password: CREDENTIALS.password,
    branch: 'main',
    filemask: 'translations/app_*.ts',
    file_format: 'ts',
    push_on_commit: false,
    ...(depth > 0 ? { depth } : {}),
  };
  writeFileSync(
    configFile,
    JSON.stringify({ database: 'tms.sqlite', repos_dir: 'repos', projects: [{ name: 'Hello', slug: 'hello', components: [component] }] }),
  );
  const config = loadConfig(configFile);
  const store = await openStore(config.database);
  const ledger = new Map<number, { target: string; filename: string }>();
  let n = 0;
  const local = { repo: path.join(config.repos_dir, 'hello', 'app'), ref: 'HEAD' };
  const handle = () => openComponent(store, config, config.projects[0]!, config.projects[0]!.components[0]!);

  const edit = async (count: number, tag: string) => {
    const h = await handle();
    const user = (await store.read((tx) => findUserByUsername(tx, 'campaign')))!;
    for (const t of (await store.read((tx) => componentTranslations(tx, h.row.id))).filter((t) => !t.is_source)) {
      const units = (await store.read((tx) => translationUnits(tx, t.id))).filter((u) => u.state !== 100 && !u.source.includes(PLURAL_SEPARATOR));
      for (let i = 0; i < count && units.length > 0; i++) {
        const unit = units[(n * 37 + i) % units.length]!;
        const target = `${tag}-${++n}`;
        await editUnit(store, { unitId: unit.id, target: [target], state: 20, user: { id: user.id } });
        ledger.set(unit.id, { target, filename: t.filename });
        campaign.count('edits_acknowledged');
      }
    }
  };

  /** Every acknowledged edit is pending with its text, or in the file at upstream's (or the local) head. */
  const checkKept = async (when: string, refs: { repo: string; ref: string }[]) => {
    let lost = 0;
    for (const [unitId, { target, filename }] of ledger) {
      const unit = await store.read((tx) => findEditableUnit(tx, unitId));
      if (unit?.pending && unit.target === target) continue;
      let found = false;
      for (const { repo, ref } of refs) {
        const text = await gitCli(repo, ['show', `${ref}:${filename}`]).catch(() => '');
        if (text.includes(`>${target}<`)) found = true;
      }
      if (!found) lost++;
    }
    campaign.count('edit_checks', ledger.size);
    if (lost > 0) campaign.violate(`${when}: ${lost} acknowledged edit(s) neither pending nor committed`);
  };

  /** The operation must fail clearly: result false, a detail naming the cause, no password, merge_failure set. */
  const expectClearFailure = async (when: string, result: { result: boolean; detail?: string }, cause: RegExp) => {
    campaign.count('surprises');
    const detail = result.detail ?? '';
    campaign.note(`${when}: ${result.result ? 'ok' : 'failed'}: ${detail.replace(/\n/g, ' | ').slice(0, 300)}`);
    if (result.result) campaign.violate(`${when}: reported success`);
    if (!cause.test(detail)) campaign.violate(`${when}: the error does not say why (${JSON.stringify(detail.slice(0, 200))})`);
    if (detail.includes(CREDENTIALS.password)) campaign.violate(`${when}: the error shows the password`);
    const status = await repositoryStatus(await handle());
    if (!status.merge_failure && !/push/i.test(when)) campaign.violate(`${when}: no merge_failure on the component's repository status`);
    if (status.merge_failure?.includes(CREDENTIALS.password)) campaign.violate(`${when}: merge_failure shows the password`);
  };

  /** Once upstream is back: pull, commit and push succeed without a manual step, and nothing was lost. */
  const expectRecovery = async (when: string) => {
    const pulled = await pullComponent(await handle());
    if (!pulled.result) campaign.violate(`${when}: the pull after recovery failed: ${pulled.detail}`);
    const committed = await commitPending(await handle());
    if (!committed.result) campaign.violate(`${when}: the commit after recovery failed: ${committed.detail}`);
    const pushed = await pushComponent(await handle());
    if (!pushed.result) campaign.violate(`${when}: the push after recovery failed: ${pushed.detail}`);
    const sync = await syncComponent(await handle());
    if (!sync.ok) campaign.violate(`${when}: the sync after recovery failed: ${sync.error}`);
    campaign.count('recoveries');
    await checkKept(`${when} (recovered)`, [{ repo: bare, ref: 'main' }]);
  };

  try {
    await store.write((tx) => applyConfig(tx, config));
    await store.write((tx) => createUser(tx, { username: 'campaign', email: 'campaign@example.org' }));
    const first = await syncComponent(await handle());
    if (!first.ok) throw new Error(`setup sync failed: ${first.error}`);
    for (let round = 1; round <= rounds; round++) {
      // 1. history rewritten: tms's pushed commit is dropped upstream, which force-pushes other work
      await edit(5, `r${round}a`);
      await commitPending(await handle());
      if (!(await pushComponent(await handle())).result) campaign.violate('setup push failed');
      await edit(5, `r${round}b`);
      await commitPending(await handle()); // a local commit not pushed yet
      await edit(5, `r${round}c`); // and pending edits
      const base = await gitCli(bare, ['rev-list', '--max-parents=0', 'main']);
      await gitCli(bare, ['update-ref', 'refs/heads/main', base]);
      await commitToUpstream(bare, { 'README.md': `rewritten ${round}\n` }, { message: `rewritten history ${round}` });
      const rewritten = await pullComponent(await handle());
      campaign.count('surprises');
      campaign.note(`force-push: pull ${rewritten.result ? 'ok' : 'failed'}: ${(rewritten.detail ?? '').replace(/\n/g, ' | ').slice(0, 300)}`);
      await checkKept('force-push', [local]);
      await expectRecovery('force-push');

      // 2. the branch deleted upstream
      await edit(5, `r${round}d`);
      const head = await gitCli(bare, ['rev-parse', 'main']);
      await gitCli(bare, ['update-ref', '-d', 'refs/heads/main']);
      await expectClearFailure('branch deleted: pull', await pullComponent(await handle()), /main|branch|ref/i);
      await checkKept('branch deleted', [local]);
      await gitCli(bare, ['update-ref', 'refs/heads/main', head]);
      await expectRecovery('branch deleted');

      // 3. unreachable: connection refused, then cut in the middle of the pack
      await edit(5, `r${round}e`);
      await commitToUpstream(bare, { 'NEWS.md': `${'news '.repeat(5000)}${round}\n` }, { message: `upstream work ${round}` });
      proxy.mode = 'refuse';
      await expectClearFailure('unreachable: pull', await pullComponent(await handle()), /socket|connect|reset|closed|hang up|network|fetch/i);
      proxy.mode = 'cut-fetch';
      await expectClearFailure('cut mid-fetch: pull', await pullComponent(await handle()), /pack|socket|closed|reset|premature|aborted|end|fetch|terminated/i);
      await checkKept('unreachable', [local, { repo: bare, ref: 'main' }]);
      proxy.mode = 'pass';
      await expectRecovery('unreachable');

      // 4. credentials revoked
      await edit(5, `r${round}f`);
      proxy.mode = 'revoked';
      await expectClearFailure('credentials revoked: pull', await pullComponent(await handle()), /401|auth|credential|permission/i);
      await commitPending(await handle());
      await expectClearFailure('credentials revoked: push', await pushComponent(await handle()), /401|auth|credential|permission/i);
      await checkKept('credentials revoked', [local, { repo: bare, ref: 'main' }]);
      proxy.mode = 'pass';
      await expectRecovery('credentials revoked');
      campaign.count('rounds');
    }
    await checkKept('final', [{ repo: bare, ref: 'main' }]);
  } finally {
    await store.close();
    await proxy.close();
    await git.close();
    rmSync(work, { recursive: true, force: true });
  }
  return campaign.finish({ edits: ledger.size });
}

process.exitCode = await main();
