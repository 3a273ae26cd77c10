// `npm run bench:commit-load`: how long commits take while clients edit and upstream moves — a whole `tms serve`
// process on the KeePassXC corpus, 20 clients PATCHing, a manager committing every few seconds, upstream committing.
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { commitToUpstream, createUpstream, tempDir } from '../test/helpers/git-repo.js';
import { startGitServer } from '../test/helpers/git-server.js';
import { keepassxcFiles, keepassxcProjects, root, serveUrl } from './bench-lib.js';

const files = keepassxcFiles('bench:commit-load');
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 20);
const SECONDS = Number(process.env.BENCH_DURATION ?? 30);
const COMMIT_EVERY_MS = Number(process.env.BENCH_COMMIT_EVERY_MS ?? 5000);
const UPSTREAM_EVERY_MS = Number(process.env.BENCH_UPSTREAM_EVERY_MS ?? 4000);
const tms = path.join(root, 'bin', 'tms');
const run = promisify(execFile);
// the whole process runs the compiled CLI: build it from these sources first
execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });

const work = await tempDir('tms-bench-commit-load-');
const upstream = path.join(work, 'upstream', 'keepassxc.git');
await createUpstream({ dir: upstream, files });
execFileSync('git', ['gc', '-q'], { cwd: upstream });
const gitServer = await startGitServer({ root: path.join(work, 'upstream') });
const configFile = path.join(work, 'tms.config.json');
writeFileSync(
  configFile,
  JSON.stringify({
    database: 'tms.sqlite',
    repos_dir: 'repos',
    auth_failures_per_minute: 1000,
    projects: keepassxcProjects(gitServer.url('keepassxc.git')),
  }),
);
// async: the git server answers from this process
const cli = async (...args: string[]) => (await run(process.execPath, [tms, '--config', configFile, ...args], { encoding: 'utf8' })).stdout.trim().split('\n');
await cli('sync', 'keepassxc');
const admin = (await cli('user', 'add', 'admin', '--email', 'admin@example.test', '--admin')).at(-1)!;
const tokens: string[] = [];
for (let i = 0; i < CLIENTS; i++) tokens.push((await cli('user', 'add', `t${i}`, '--email', `t${i}@example.test`)).at(-1)!);

const server: ChildProcess = spawn(process.execPath, [tms, '--config', configFile, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
// never left running, whatever ends this script
process.on('exit', () => server.kill('SIGKILL'));
const base = await serveUrl(server);

const api = async (method: string, url: string, token: string, body?: unknown) => {
  const r = await fetch(base + url, {
    method,
    headers: { Authorization: `Token ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, json: (await r.json().catch(() => null)) as Record<string, unknown> | null };
};

// units of a few languages to edit
const ids: number[] = [];
for (const lang of ['de', 'fr', 'cs', 'ja']) {
  const page = await api('GET', `/api/translations/keepassxc/keepassxc/${lang}/units/?page_size=200`, admin);
  for (const u of (page.json?.results as { id: number }[] | undefined) ?? []) ids.push(u.id);
}

const percentile = (list: number[], p: number) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const end = Date.now() + SECONDS * 1000;
const patches: number[] = [];
let patchErrors = 0;
const commits: { ms: number; ok: boolean; detail: string }[] = [];
let upstreamCommits = 0;

const clients = tokens.map(async (token, c) => {
  let n = 0;
  while (Date.now() < end) {
    const id = ids[(c * 7919 + n * 104729) % ids.length]!;
    const t = performance.now();
    const r = await api('PATCH', `/api/units/${id}/`, token, { target: [`edit ${c}/${n}`], state: 20 });
    patches.push(performance.now() - t);
    if (r.status !== 200) patchErrors++;
    n++;
  }
});
const committer = (async () => {
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, COMMIT_EVERY_MS));
    const t = performance.now();
    const r = await api('POST', '/api/components/keepassxc/keepassxc/repository/', admin, { operation: 'commit' });
    commits.push({
      ms: performance.now() - t,
      ok: r.status === 200 && r.json?.result === true,
      detail: String(r.json?.detail ?? r.status).replace(/\n/g, ' | '),
    });
  }
})();
const mover = (async () => {
  const other = 'share/translations/keepassxc_en.ts';
  let text = files[other]!.toString('utf8');
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, UPSTREAM_EVERY_MS));
    text = text.replace('</TS>', `<!-- upstream ${upstreamCommits} -->\n</TS>`);
    // tms may push between this clone and this push: clone and commit again
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await commitToUpstream(upstream, { [other]: text });
        upstreamCommits++;
        break;
      } catch {}
    }
  }
})();
await Promise.all([...clients, committer, mover]);
// the same kind of commit once the load has stopped (upstream moved too): every unit the clients edit, edited once
// by the same authors, then the commit alone
for (const [n, id] of ids.entries()) {
  const c = n % tokens.length;
  await api('PATCH', `/api/units/${id}/`, tokens[c]!, { target: [`quiet ${c}/${n}`], state: 20 });
}
await commitToUpstream(upstream, {
  'share/translations/keepassxc_en.ts': files['share/translations/keepassxc_en.ts']!.toString('utf8').replace('</TS>', '<!-- quiet -->\n</TS>'),
});
const quietStart = performance.now();
const quiet = await api('POST', '/api/components/keepassxc/keepassxc/repository/', admin, { operation: 'commit' });
const quietMs = performance.now() - quietStart;

const lines = [
  `${CLIENTS} clients PATCHing for ${SECONDS} s, a commit every ${COMMIT_EVERY_MS / 1000} s (push_on_commit), upstream moving every ${UPSTREAM_EVERY_MS / 1000} s (${upstreamCommits} commits)`,
  `PATCH: ${patches.length} requests (${(patches.length / SECONDS).toFixed(0)}/s), p50 ${percentile(patches, 50).toFixed(1)} ms, p99 ${percentile(patches, 99).toFixed(1)} ms, max ${Math.max(...patches).toFixed(0)} ms, ${patchErrors} errors`,
  `commit (+ pull and push): ${commits.length} commits, p50 ${percentile(
    commits.map((c) => c.ms),
    50,
  ).toFixed(0)} ms, max ${Math.max(...commits.map((c) => c.ms)).toFixed(0)} ms, ${commits.filter((c) => !c.ok).length} failed`,
  ...commits.map((c, i) => `  commit ${i + 1}: ${c.ms.toFixed(0)} ms ${c.ok ? 'ok' : 'FAILED'}: ${c.detail}`),
  `the same kind of commit with no load (upstream moved too): ${quietMs.toFixed(0)} ms: ${String(quiet.json?.detail ?? quiet.status).split('\n')[0]}`,
  `machine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, node ${process.version}, ${new Date().toISOString().slice(0, 10)}`,
];
console.log(lines.join('\n'));
server.kill('SIGTERM');
await gitServer.close();
rmSync(work, { recursive: true, force: true });
process.exit(0);
