// `npm run bench:web`: server time of the web pages (p50/p95 over loopback, signed in) on the KeePassXC corpus synced
// ten times (720k units), zen mode's list, a save-and-next round trip (API PATCH + next editor page), and the assets' compressed size (`BENCH_PAGES=dashboard,search` measures only the pages whose names hold those words).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { hashPassword } from '../src/auth/password.js';
import { type Config, parseConfig } from '../src/config/config.js';
import { startServer } from '../src/server/server.js';
import { openStore } from '../src/store/index.js';
import { setPasswordHash } from '../src/store/sessions.repo.js';
import { createUser, setUserLanguages } from '../src/store/users.repo.js';
import { applyConfig } from '../src/sync/config.js';
import { syncProject } from '../src/sync/index.js';
import { ASSETS_DIR } from '../src/web/assets.js';
import { createUpstream, tempDir } from '../test/helpers/git-repo.js';
import { sqlOn } from '../test/helpers/store.js';
import { webSignIn } from '../test/helpers/web-session.js';
import { buildAssets } from './build-assets.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function main(): Promise<void> {
  const corpus = process.env.TMS_CORPUS ?? path.resolve(root, '..', 'shared', 'corpus');
  const source = path.join(corpus, 'keepassxreboot-keepassxc', 'share', 'translations');
  if (!existsSync(source)) {
    console.log(`bench:web: the KeePassXC corpus is not at ${source}; set TMS_CORPUS. Nothing measured.`);
    return;
  }
  const copies = Number(process.env.BENCH_COPIES ?? 10);
  const samples = Number(process.env.BENCH_SAMPLES ?? 200);
  if (!existsSync(path.join(ASSETS_DIR, 'manifest.json'))) await buildAssets();
  const manifest = JSON.parse(readFileSync(path.join(ASSETS_DIR, 'manifest.json'), 'utf8')) as Record<string, string>;
  const sizes = Object.entries(manifest).map(([name, file]) => {
    const bytes = readFileSync(path.join(ASSETS_DIR, file));
    return { name, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });

  const work = await tempDir('tms-bench-web-');
  const files = Object.fromEntries(
    readdirSync(source)
      .filter((n) => /^keepassxc_.*\.ts$/.test(n))
      .map((n) => [`share/translations/${n}`, readFileSync(path.join(source, n))]),
  );
  await createUpstream({ dir: path.join(work, 'upstream', 'keepassxc.git'), files });
  execFileSync('git', ['gc', '-q'], { cwd: path.join(work, 'upstream', 'keepassxc.git') });
  const configFile = path.join(work, 'tms.config.json');
  const components = Array.from({ length: copies }, (_, i) => ({
    name: `KeePassXC ${i}`,
    slug: `keepassxc-${i}`,
    repo: path.join(work, 'upstream', 'keepassxc.git'),
    branch: 'main',
    filemask: 'share/translations/keepassxc_*.ts',
    file_format: 'ts',
    source_language: 'en',
    push_on_commit: false,
  }));
  const text = JSON.stringify({ database: 'tms.sqlite', repos_dir: 'repos', projects: [{ name: 'KeePassXC', slug: 'keepassxc', components }] });
  writeFileSync(configFile, text);
  const config: Config = parseConfig(text, configFile);
  const store = await openStore(config.database);
  await store.write((tx) => applyConfig(tx, config));
  for (const r of await syncProject(store, config, 'keepassxc')) if (!r.ok) throw new Error(`${r.component}: ${r.error}`);
  const units = (await sqlOn(store).value('SELECT count(*) FROM units')) as number;
  const bench = await store.write((tx) => createUser(tx, { username: 'bench', email: 'bench@example.org' }));
  // the dashboard lists the work of the user's languages: German and French, in every component
  const languageIds = (await sqlOn(store).rows("SELECT id FROM languages WHERE code IN ('de', 'fr')")) as { id: number }[];
  await store.write((tx) =>
    setUserLanguages(
      tx,
      bench.user.id,
      languageIds.map((l) => l.id),
    ),
  );
  const hash = await hashPassword('bench-password');
  await store.write((tx) => setPasswordHash(tx, 'bench', hash));
  const server = await startServer({ store, config, host: '127.0.0.1', port: 0, log: (m) => console.error(m) });
  const origin = server.url;

  const { cookie, csrf: sessionCsrf } = await webSignIn(origin, 'bench', 'bench-password');

  const pick = (n: number) => Math.floor(Math.random() * n);
  const totalDe = (await sqlOn(store).value(
    `SELECT count(*) FROM units u JOIN translations t ON t.id = u.translation_id WHERE t.language_code = 'de' AND t.component_id = (SELECT min(id) FROM components)`,
  )) as number;
  const pages: [string, () => string][] = [
    ['dashboard /', () => '/'],
    ['project', () => '/projects/keepassxc/'],
    ['component', () => `/projects/keepassxc/keepassxc-${pick(copies)}/`],
    ['translation', () => `/projects/keepassxc/keepassxc-${pick(copies)}/de/`],
    ['editor ?offset=N', () => `/translate/keepassxc/keepassxc-${pick(copies)}/de/?offset=${1 + pick(totalDe)}`],
    ['editor untranslated ?q=', () => `/translate/keepassxc/keepassxc-${pick(copies)}/de/?q=${encodeURIComponent('state:<translated')}&offset=${1 + pick(20)}`],
    ['zen mode, 50 strings at offset N', () => `/zen/keepassxc/keepassxc-${pick(copies)}/de/?offset=${1 + pick(totalDe - 50)}`],
    ['zen mode, 500 strings (?count=500)', () => `/zen/keepassxc/keepassxc-${pick(copies)}/de/?count=500&offset=${1 + pick(totalDe - 500)}`],
    ['languages', () => '/languages/'],
    ['language', () => '/languages/de/'],
    ['changes', () => '/changes/'],
    ['search, every translation (?q=Title: many matches)', () => `/search/?q=Title&offset=${50 * pick(20)}`],
    ['search, every translation (?q=source:xyzzy: no match, every string read)', () => `/search/?q=${encodeURIComponent('source:xyzzy')}`],
  ];
  // BENCH_PAGES: only the pages whose name contains one of these comma-separated words
  const only = (process.env.BENCH_PAGES ?? '').split(',').filter(Boolean);
  const rows: string[] = [];
  for (const [name, next] of pages.filter(([name]) => only.length === 0 || only.some((w) => name.includes(w)))) {
    for (let i = 0; i < 5; i++) await (await fetch(origin + next(), { headers: { Cookie: cookie } })).arrayBuffer();
    const times: number[] = [];
    for (let i = 0; i < samples; i++) {
      const started = performance.now();
      const r = await fetch(origin + next(), { headers: { Cookie: cookie } });
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`${name}: ${r.status}`);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    rows.push(`| ${name} | ${quantile(times, 0.5).toFixed(1)} | ${quantile(times, 0.95).toFixed(1)} |`);
  }
  // Save and next as the editor's script does it: PATCH through the API, then the next editor page.
  const ids = (await sqlOn(store).rows(
    `SELECT u.id, u.position, t.component_id FROM units u JOIN translations t ON t.id = u.translation_id WHERE t.language_code = 'de' AND u.source NOT LIKE '%' || char(30) || '%' ORDER BY random() LIMIT ?`,
    samples,
  )) as { id: number; position: number; component_id: number }[];
  const slugs = new Map(((await sqlOn(store).rows('SELECT id, slug FROM components')) as { id: number; slug: string }[]).map((r) => [r.id, r.slug]));
  const saves: number[] = [];
  for (const u of ids) {
    const started = performance.now();
    const patch = await fetch(`${origin}/api/units/${u.id}/`, {
      method: 'PATCH',
      headers: { Cookie: cookie, 'X-CSRFToken': sessionCsrf, 'Content-Type': 'application/json' },
      body: JSON.stringify({ target: [`bench ${u.id}`], state: 20 }),
    });
    await patch.arrayBuffer();
    if (patch.status !== 200) throw new Error(`PATCH ${patch.status}`);
    const page = await fetch(`${origin}/translate/keepassxc/${slugs.get(u.component_id)}/de/?after=${u.position}`, { headers: { Cookie: cookie } });
    await page.arrayBuffer();
    saves.push(performance.now() - started);
  }
  saves.sort((a, b) => a - b);
  await server.close();
  await store.close();

  console.log(`bench:web on ${units.toLocaleString('en')} units (${copies} × KeePassXC), ${samples} sequential requests per page, signed in, loopback`);
  console.log('\n| page | p50 ms | p95 ms |\n|---|---|---|');
  for (const row of rows) console.log(row);
  console.log(`| save-and-next (PATCH + next editor page) | ${quantile(saves, 0.5).toFixed(1)} | ${quantile(saves, 0.95).toFixed(1)} |`);
  console.log('\n| asset | bytes | gzip bytes |\n|---|---|---|');
  for (const s of sizes) console.log(`| ${s.name} | ${s.raw.toLocaleString('en')} | ${s.gzip.toLocaleString('en')} |`);
}

await main();
