// `npm run bench:api`: load the read API over loopback (autocannon in this process, the server in a child) on the
// KeePassXC corpus synced once (72k units) and ten times (720k units), against a bare node:http route as the ceiling.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Config, loadConfig, parseConfig } from '../src/config/config.js';
import { startServer } from '../src/server/server.js';
import { openStore } from '../src/store/index.js';
import { applyConfig } from '../src/sync/config.js';
import { syncProject } from '../src/sync/index.js';
import { createUpstream, tempDir } from '../test/helpers/git-repo.js';
import { sqlOn } from '../test/helpers/store.js';
import { autocannon } from './bench-lib.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const self = fileURLToPath(import.meta.url);

interface Row {
  dataset: string;
  /** The server's response cache: off, or on (64 MiB). */
  cache: string;
  name: string;
  rps: number;
  p50: number;
  p99: number;
  failed: number;
}

async function main(): Promise<void> {
  const corpus = process.env.TMS_CORPUS ?? path.resolve(root, '..', 'shared', 'corpus');
  const source = path.join(corpus, 'keepassxreboot-keepassxc', 'share', 'translations');
  if (!existsSync(source)) {
    console.log(`bench:api: the KeePassXC corpus is not at ${source}; set TMS_CORPUS. Nothing measured.`);
    return;
  }
  const duration = Number(process.env.BENCH_DURATION ?? 10);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
  const copies = Number(process.env.BENCH_COPIES ?? 10);

  const work = await tempDir('tms-bench-api-');
  const files = Object.fromEntries(
    readdirSync(source)
      .filter((n) => /^keepassxc_.*\.ts$/.test(n))
      .map((n) => [`share/translations/${n}`, readFileSync(path.join(source, n))]),
  );
  await createUpstream({ dir: path.join(work, 'upstream', 'keepassxc.git'), files });
  execFileSync('git', ['gc', '-q'], { cwd: path.join(work, 'upstream', 'keepassxc.git') });

  const rows: Row[] = [];
  for (const [dataset, count] of [
    ['72k', 1],
    [`${copies}×72k`, copies],
  ] as const) {
    const configFile = path.join(work, `${count}.config.json`);
    const components = Array.from({ length: count }, (_, i) => ({
      name: `KeePassXC ${i}`,
      slug: `keepassxc-${i}`,
      repo: path.join(work, 'upstream', 'keepassxc.git'),
      branch: 'main',
      filemask: 'share/translations/keepassxc_*.ts',
      file_format: 'ts',
      source_language: 'en',
    }));
    // anonymous reads at full speed: the benchmark measures the API, not Weblate's 100/day throttle
    const text = JSON.stringify({
      database: `${count}.sqlite`,
      repos_dir: `repos-${count}`,
      rate_limit: { anonymous: '' },
      projects: [{ name: 'KeePassXC', slug: 'keepassxc', components }],
    });
    writeFileSync(configFile, text);
    const config: Config = parseConfig(text, configFile);
    const store = await openStore(config.database);
    const sql = sqlOn(store);
    await store.write((tx) => applyConfig(tx, config));
    const started = performance.now();
    for (const r of await syncProject(store, config, 'keepassxc')) if (!r.ok) throw new Error(`${r.component}: ${r.error}`);
    const units = (await sql.value('SELECT count(*) FROM units')) as number;
    const changes = (await sql.value('SELECT count(*) FROM changes')) as number;
    const unitIds = (await sql.values('SELECT id FROM units ORDER BY random() LIMIT 5000')) as number[];
    const pages = Math.ceil(
      ((await sql.value(`SELECT count(*) FROM units u JOIN translations t ON t.id = u.translation_id JOIN languages l ON l.id = t.language_id
       JOIN components c ON c.id = t.component_id WHERE c.slug = 'keepassxc-0' AND l.code = 'de'`)) as number) / 100,
    );
    await store.close();
    console.log(
      `${dataset}: ${units.toLocaleString('en')} units, ${changes.toLocaleString('en')} changes, synced in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)];
    const only = process.env.BENCH_ONLY;
    const targets = (
      [
        ['GET /api/units/<id>/', '/api/units/1/', () => `/api/units/${pick(unitIds)}/`],
        [
          '100-unit page of a translation',
          '/api/translations/keepassxc/keepassxc-0/de/units/?page_size=100',
          () =>
            `/api/translations/keepassxc/keepassxc-${Math.floor(Math.random() * count)}/de/units/?page_size=100&page=${1 + Math.floor(Math.random() * pages)}`,
        ],
        [
          'component statistics',
          '/api/components/keepassxc/keepassxc-0/statistics/',
          () => `/api/components/keepassxc/keepassxc-${Math.floor(Math.random() * count)}/statistics/`,
        ],
        ['GET /api/changes/', '/api/changes/', () => '/api/changes/'],
      ] as [string, string, () => string][]
    ).filter(([name]) => !only || name.includes(only));
    for (const [cache, cacheBytes] of [
      ['off', 0],
      ['on', 64 << 20],
    ] as const) {
      const child = spawn(process.execPath, ['--import', 'tsx', self, 'serve', configFile, String(cacheBytes)], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const urls = await new Promise<{ api: string; hello: string }>((resolve, reject) => {
        child.stdout!.once('data', (d: Buffer) => resolve(JSON.parse(d.toString())));
        child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
      });
      try {
        if (dataset === '72k' && cache === 'off') {
          rows.push({
            dataset: '—',
            cache: '—',
            name: 'bare node:http "hello" (ceiling)',
            ...(await load(`${urls.hello}/hello/`, () => '/hello/', duration, connections)),
          });
        }
        for (const [name, first, next] of targets) {
          const row = { dataset, cache, name, ...(await load(urls.api + first, next, duration, connections)) };
          rows.push(row);
          console.log(`  cache ${cache}, ${name}: ${row.rps.toFixed(0)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms`);
        }
      } finally {
        await stop(child);
      }
    }
  }
  rmSync(work, { recursive: true, force: true });
  report(rows, connections, duration);
}

/** Warms up for 2 s, then measures `duration` seconds with a fresh path per request. */
async function load(url: string, next: () => string, duration: number, connections: number): Promise<Omit<Row, 'dataset' | 'cache' | 'name'>> {
  const requests = [{ setupRequest: (request: { path: string }) => ({ ...request, path: next() }) }];
  await autocannon({ url, connections, duration: 2, requests });
  const r = await autocannon({ url, connections, duration, requests });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, failed: r.errors + r.non2xx + r.timeouts };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function report(rows: Row[], connections: number, duration: number): void {
  const ceiling = rows.find((r) => r.dataset === '—')!.rps;
  console.log(`\n${connections} connections, ${duration} s per row after a 2 s warm-up; paths vary per request.\n`);
  console.log('| data | cache | request | req/s | × ceiling | p50 ms | p99 ms | failed |');
  console.log('|---|---|---|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.dataset} | ${r.cache} | ${r.name} | ${Math.round(r.rps).toLocaleString('en')} | ${(r.rps / ceiling).toFixed(2)} | ${r.p50} | ${r.p99} | ${r.failed} |`,
    );
  }
  console.log('\nlarger set / 72k (same cache mode):');
  for (const r of rows.filter((x) => x.dataset !== '72k' && x.dataset !== '—')) {
    const base = rows.find((x) => x.dataset === '72k' && x.cache === r.cache && x.name === r.name)!;
    console.log(
      `  cache ${r.cache}, ${r.name}: p50 ×${(r.p50 / base.p50).toFixed(2)}, p99 ×${(r.p99 / base.p99).toFixed(2)}, req/s ×${(r.rps / base.rps).toFixed(2)}`,
    );
  }
}

/** The child process: serves a synced store, and a bare node:http "hello" route on another port; prints both URLs. */
async function serve(configFile: string, cacheBytes: number): Promise<void> {
  const config = loadConfig(configFile);
  const store = await openStore(config.database);
  const api = await startServer({ store, config, host: '127.0.0.1', port: 0, cacheBytes });
  const body = JSON.stringify({ hello: 'world' });
  const bare = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
  bare.listen(0, '127.0.0.1');
  await new Promise((resolve) => bare.once('listening', resolve));
  process.stdout.write(`${JSON.stringify({ api: api.url, hello: `http://127.0.0.1:${(bare.address() as AddressInfo).port}` })}\n`);
  process.on('SIGTERM', () => {
    bare.close();
    void api.close().then(() => process.exit(0));
  });
}

if (process.argv[2] === 'serve') await serve(process.argv[3]!, Number(process.argv[4]));
else await main();
