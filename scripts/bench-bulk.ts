// `npm run bench:bulk`: changes to many strings through the web pages, on one translation of 72k strings (KeePassXC's
// German file with its contexts repeated 33 times): the search and replace preview over all of them, bulk edit of
// 10,000 strings (one transaction: their state, and a label put on and taken off), the replacement applied, against the editor page in the same run.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hashPassword } from '../src/auth/password.js';
import { type Config, parseConfig } from '../src/config/config.js';
import { startServer } from '../src/server/server.js';
import { joinTeams } from '../src/store/auth.repo.js';
import { openStore } from '../src/store/index.js';
import { createLabel } from '../src/store/labels.repo.js';
import { setPasswordHash } from '../src/store/sessions.repo.js';
import { createUser } from '../src/store/users.repo.js';
import { applyConfig } from '../src/sync/config.js';
import { syncProject } from '../src/sync/index.js';
import { createUpstream, tempDir } from '../test/helpers/git-repo.js';
import { sqlOn } from '../test/helpers/store.js';
import { webSignIn } from '../test/helpers/web-session.js';
import { keepassxcSource } from './bench-lib.js';

const COPIES = Number(process.env.BENCH_COPIES ?? 33);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 5);

/** A Qt TS file whose contexts are repeated `copies` times under new names (every string once per copy). */
function repeated(file: string, copies: number): string {
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf('<context>');
  const end = text.lastIndexOf('</context>') + '</context>'.length;
  const contexts = text.slice(start, end);
  const parts: string[] = [];
  for (let i = 0; i < copies; i++) parts.push(contexts.replace(/<context>\s*<name>([^<]*)<\/name>/g, (_, name) => `<context>\n    <name>${name}_${i}</name>`));
  return text.slice(0, start) + parts.join('\n') + text.slice(end);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const source = keepassxcSource('bench:bulk');
  const work = await tempDir('tms-bench-bulk-');
  const files = {
    'translations/big_en.ts': Buffer.from(repeated(path.join(source, 'keepassxc_en.ts'), COPIES)),
    'translations/big_de.ts': Buffer.from(repeated(path.join(source, 'keepassxc_de.ts'), COPIES)),
  };
  mkdirSync(path.join(work, 'upstream'), { recursive: true });
  await createUpstream({ dir: path.join(work, 'upstream', 'big.git'), files });
  execFileSync('git', ['gc', '-q'], { cwd: path.join(work, 'upstream', 'big.git') });
  const component = {
    name: 'Big',
    slug: 'big',
    repo: path.join(work, 'upstream', 'big.git'),
    branch: 'main',
    filemask: 'translations/big_*.ts',
    file_format: 'ts',
    source_language: 'en',
    push_on_commit: false,
  };
  const configFile = path.join(work, 'tms.config.json');
  const text = JSON.stringify({ database: 'tms.sqlite', repos_dir: 'repos', projects: [{ name: 'Bench', slug: 'bench', components: [component] }] });
  writeFileSync(configFile, text);
  const config: Config = parseConfig(text, configFile);
  const store = await openStore(config.database);
  await store.write((tx) => applyConfig(tx, config));
  for (const r of await syncProject(store, config, 'bench')) if (!r.ok) throw new Error(`${r.component}: ${r.error}`);
  const units = (await sqlOn(store).value(
    "SELECT count(*) FROM units u JOIN translations t ON t.id = u.translation_id WHERE t.language_code = 'de'",
  )) as number;
  const { user } = await store.write((tx) => createUser(tx, { username: 'bench', email: 'bench@example.org' }));
  await store.write((tx) => joinTeams(tx, user.id, ['Managers']));
  const hash = await hashPassword('bench-password');
  await store.write((tx) => setPasswordHash(tx, 'bench', hash));
  const server = await startServer({ store, config, host: '127.0.0.1', port: 0, log: (m) => console.error(m) });
  const origin = server.url;

  const { cookie, csrf: sessionCsrf } = await webSignIn(origin, 'bench', 'bench-password');

  async function timed(method: string, url: string, body?: Record<string, string>): Promise<{ ms: number; status: number; text: string }> {
    const started = performance.now();
    const r = await fetch(origin + url, {
      method,
      redirect: 'manual',
      headers: { Cookie: cookie, ...(body ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}) },
      body: body && new URLSearchParams({ csrfmiddlewaretoken: sessionCsrf, ...body }),
    });
    const text = await r.text();
    return { ms: performance.now() - started, status: r.status, text };
  }

  const rows: string[] = [];
  async function measure(name: string, method: string, url: string, body?: () => Record<string, string>, samples = SAMPLES): Promise<string> {
    const times: number[] = [];
    let last = '';
    for (let i = 0; i < samples; i++) {
      const r = await timed(method, url, body?.());
      if (r.status >= 400) throw new Error(`${name}: ${r.status} ${r.text.slice(0, 300)}`);
      times.push(r.ms);
      last = r.text;
    }
    rows.push(`| ${name} | ${median(times).toFixed(0)} | ${Math.max(...times).toFixed(0)} |`);
    return last;
  }

  const base = '/translate/bench/big/de/';
  await measure('anchor: editor page (one string)', 'GET', `${base}?offset=${Math.floor(units / 2)}`, undefined, 20);
  const plain = await measure(
    'replace preview, text "Datei" → "Akte"',
    'GET',
    `/replace/bench/big/de/?${new URLSearchParams({ search: 'Datei', replacement: 'Akte' })}`,
  );
  const planned = /data-planned="(\d+)"/.exec(plain)?.[1];
  const regex = await measure(
    'replace preview, RE2 `(\\w+)datei` → `$1-Datei`',
    'GET',
    `/replace/bench/big/de/?${new URLSearchParams({ search: '(\\w+)datei', replacement: '$1-Datei', regex: '1' })}`,
  );
  const plannedRegex = /data-planned="(\d+)"/.exec(regex)?.[1];
  // each bulk edit flips 10,000 strings (needs editing, then translated again)
  let state = 10;
  const bulk = await measure('bulk edit of 10,000 strings (one transaction)', 'POST', '/bulk-edit/bench/big/de/', () => {
    const b = { q: 'position:<=10000', state: String(state) };
    state = state === 10 ? 20 : 10;
    return b;
  });
  void bulk;
  const changed = (await sqlOn(store).value('SELECT count(*) FROM changes WHERE action = 32')) as number;
  // a label put on 10,000 strings, then taken off again (each recorded on the source string)
  const projectId = (await sqlOn(store).value("SELECT id FROM projects WHERE slug = 'bench'")) as number;
  const label = await store.write((tx) => createLabel(tx, { projectId, name: 'Bench', description: '', color: 'navy' }));
  let labelField = 'add_labels';
  await measure('bulk edit: a label put on / taken off 10,000 strings (one transaction)', 'POST', '/bulk-edit/bench/big/de/', () => {
    const b = { q: 'position:<=10000', state: '', [labelField]: String(label!.id) };
    labelField = labelField === 'add_labels' ? 'remove_labels' : 'add_labels';
    return b;
  });
  const labelled = (await sqlOn(store).value('SELECT count(*) FROM changes WHERE action IN (86, 87)')) as number;
  await measure('replace applied ("Datei" → "Akte")', 'POST', '/replace/bench/big/de/', () => ({ search: 'Datei', replacement: 'Akte' }), 1);
  await server.close();
  await store.close();

  console.log(
    `bench:bulk on one translation of ${units.toLocaleString('en')} strings (KeePassXC German × ${COPIES}), ${SAMPLES} runs each, signed in, loopback`,
  );
  console.log(
    `replace previews: ${planned} strings change ("Datei"), ${plannedRegex} (RE2); bulk edit change records: ${changed} over ${SAMPLES} runs of 10,000 selected strings (the untranslated among them keep their state); label changes recorded: ${labelled}`,
  );
  console.log('\n| what | median ms | max ms |\n|---|---|---|');
  for (const row of rows) console.log(row);
}

await main();
process.exit(0);
