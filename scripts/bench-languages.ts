// `npm run bench:languages`: CPU a request of the pages that list languages (project, component, `/languages/`) on a generated site translated into every language of the table, against `/projects/` as the anchor (issue 27).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseConfig } from '../src/config/config.js';
import { startServer } from '../src/server/server.js';
import { openStore } from '../src/store/index.js';
import { refreshStats } from '../src/store/stats.repo.js';
import { upsertTranslation } from '../src/store/translations.repo.js';
import { applyConfig } from '../src/sync/config.js';

/** Components of the one project, each translated into every language (no units: the pages read kept statistics). */
const COMPONENTS = Number(process.env.BENCH_COMPONENTS ?? 5);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 100);
const PAGES = ['/projects/', '/projects/world/', '/projects/world/c0/', '/languages/'];

const dir = mkdtempSync(path.join(tmpdir(), 'tms-bench-languages-'));
try {
  const component = (slug: string) => ({
    name: slug,
    slug,
    repo: 'https://example.invalid/world.git',
    branch: 'main',
    filemask: `${slug}/*.ts`,
    file_format: 'ts',
  });
  const config = parseConfig(
    JSON.stringify({
      database: path.join(dir, 'tms.sqlite'),
      repos_dir: 'repos',
      rate_limit: { anonymous: '', user: '' },
      projects: [{ name: 'World', slug: 'world', components: Array.from({ length: COMPONENTS }, (_, i) => component(`c${i}`)) }],
    }),
    path.join(dir, 'tms.config.json'),
  );
  const store = await openStore(config.database);
  const languages = await store.write(async (tx) => {
    await applyConfig(tx, config);
    const components = (await tx.prepare('SELECT id FROM components').pluck().all()) as number[];
    const all = (await tx.prepare('SELECT id, code FROM languages').all()) as { id: number; code: string }[];
    const ids: number[] = [];
    for (const c of components) {
      for (const l of all) {
        const source = l.code === 'en' ? 1 : 0;
        ids.push(
          await upsertTranslation(tx, {
            component_id: c,
            language_id: l.id,
            language_code: l.code,
            filename: `${l.code}.ts`,
            is_source: source,
            is_template: 0,
          }),
        );
      }
    }
    await refreshStats(tx, ids);
    return all.length;
  });
  const server = await startServer({ store, config, host: '127.0.0.1', port: 0, log: () => {} });
  console.log(`${COMPONENTS} components × ${languages} languages; CPU of this process (server and client) a request, over ${REQUESTS} requests`);
  for (let round = 1; round <= 2; round++) {
    for (const p of PAGES) {
      const body = await (await fetch(server.url + p)).text();
      const start = process.cpuUsage();
      for (let i = 0; i < REQUESTS; i++) await (await fetch(server.url + p)).text();
      const used = process.cpuUsage(start);
      console.log(`round ${round} ${p.padEnd(22)} ${((used.user + used.system) / 1000 / REQUESTS).toFixed(2)} ms  ${body.length} bytes`);
    }
  }
  await server.close();
  await store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
