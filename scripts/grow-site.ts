// `npm run grow:site`: grows a site kept by `bench:site` (SITE_KEEP) to GROW_UNITS units, synthetically: each
// component gets more languages, each new translation a copy in SQL of the units (and failing checks) of one of the
// component's own translations; the statistics of every new translation counted by the store's own code.
// GROW_DATABASE=postgresql://…: a PostgreSQL copy of such a store (`tms db copy`) is grown in place instead, on the
// server: the search table's trigram indexes dropped meanwhile and built again after (the insert trigger fills the table
// as a sync's inserts do), then VACUUM and ANALYZE as after a first load.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { isPostgresUrl } from '../src/config/database.js';
import { openStore } from '../src/store/index.js';
import { refreshStats } from '../src/store/stats.repo.js';
import { sqlOn } from '../test/helpers/store.js';

const dir = process.env.GROW_DIR;
const url = process.env.GROW_DATABASE;
const TARGET = Number(process.env.GROW_UNITS ?? 10_000_000);
/** Components a transaction (a commit every so many keeps the write-ahead log small). */
const BATCH = Number(process.env.GROW_BATCH ?? 100);
/** Translations whose statistics are compared with a count of their units, after the growth. */
const SAMPLE = Number(process.env.GROW_SAMPLE ?? 500);
const database = url ?? (dir ? path.join(dir, 'linked', 'tms.sqlite') : '');
if (!url && (!dir || !existsSync(database))) {
  console.log(
    'grow:site: set GROW_DIR to a folder `bench:site` kept (SITE_KEEP=1); it holds linked/tms.sqlite (or GROW_DATABASE to a PostgreSQL copy of one). Nothing grown.',
  );
  process.exit(1);
}
const postgres = isPostgresUrl(database);

const started = performance.now();
const store = await openStore(database);
const sql = sqlOn(store);
const unitsBefore = Number(await sql.value('SELECT count(*) FROM units'));
const translationsBefore = Number(await sql.value('SELECT count(*) FROM translations'));

// every column of a unit but its id, translation and pending edit: copied as they are
const columns = (
  await sql.values<string>(
    postgres
      ? 'SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position'
      : 'SELECT name FROM pragma_table_info(?)',
    'units',
  )
).filter((c) => !['id', 'translation_id', 'pending', 'pending_author_id'].includes(c));
const components = await sql.rows<{ id: number; template: number; units: number }>(
  `SELECT c.id, min(t.id) AS template, (SELECT count(*) FROM units WHERE translation_id = min(t.id)) AS units
   FROM components c JOIN translations t ON t.component_id = c.id AND t.is_source = 0 GROUP BY c.id ORDER BY c.id`,
);
const languages = await sql.rows<{ id: number; code: string }>("SELECT id, code FROM languages WHERE code <> 'en' ORDER BY id");
// languages a component gets: as many for each, enough (with the template's units) to reach the target
const templateUnits = components.reduce((n, c) => n + c.units, 0);
const perComponent = Math.ceil((TARGET - unitsBefore) / templateUnits);
// a store that holds the target already is only checked (GROW_UNITS=0: check a grown store again)
if (perComponent >= 1) {
  console.log(
    `grow:site: ${unitsBefore.toLocaleString('en')} units in ${translationsBefore.toLocaleString('en')} translations; adding up to ${perComponent} languages to each of ${components.length} components`,
  );
}
let added = unitsBefore;
const newTranslations: number[] = [];
// PostgreSQL: the search table's trigram indexes (as the migrations made them) dropped while the units grow, built
// again in one pass after: far cheaper than millions of rows entered one by one into three GIN indexes
const trigramIndexes =
  postgres && perComponent >= 1
    ? await sql.values<string>(
        "SELECT pg_get_indexdef(indexrelid) FROM pg_index WHERE indrelid = 'unit_search'::regclass AND pg_get_indexdef(indexrelid) LIKE '%gin_trgm_ops%'",
      )
    : [];
for (const definition of trigramIndexes) await sql.run(`DROP INDEX ${/^CREATE INDEX (\S+) ON/.exec(definition)![1]}`);
for (let b = 0; perComponent >= 1 && b < components.length && added < TARGET; b += BATCH) {
  await store.write(async (tx) => {
    const template = tx.prepare('SELECT language_code, filename, revision FROM translations WHERE id = ?');
    const used = tx.prepare('SELECT language_id FROM translations WHERE component_id = ?');
    const translation = tx.prepare(
      'INSERT INTO translations (component_id, language_id, language_code, filename, revision, is_source, is_template) VALUES (?, ?, ?, ?, ?, 0, 0) RETURNING id',
    );
    const units = tx.prepare(
      `INSERT INTO units (translation_id, ${columns.join(', ')}, pending) SELECT ?, ${columns.join(', ')}, 0 FROM units WHERE translation_id = ? ORDER BY id`,
    );
    const checks = tx.prepare(
      `INSERT INTO checks (unit_id, name, dismissed) SELECT n.id, k.name, k.dismissed
       FROM checks k JOIN units o ON o.id = k.unit_id JOIN units n ON n.translation_id = ? AND n.id_hash = o.id_hash WHERE o.translation_id = ?`,
    );
    const grown: number[] = [];
    for (const c of components.slice(b, b + BATCH)) {
      const t = (await template.get(c.template)) as { language_code: string; filename: string; revision: string };
      const taken = new Set(((await used.all(c.id)) as { language_id: number }[]).map((r) => r.language_id));
      const free = languages.filter((l) => !taken.has(l.id));
      // languages spread over the catalog: each component from its own place in it
      for (let k = 0; k < perComponent && k < free.length && added < TARGET; k++) {
        const l = free[(c.id * 17 + k) % free.length]!;
        // the file the language would have beside the template's (Qt TS: `<name>_<code>.ts`)
        const filename = t.filename.replace(new RegExp(`_${t.language_code}(\\.[a-z]+)$`), `_${l.code}$1`);
        const { id } = (await translation.get(c.id, l.id, l.code, filename, t.revision)) as { id: number };
        added += (await units.run(id, c.template)).changes;
        await checks.run(id, c.template);
        grown.push(id);
      }
    }
    await refreshStats(tx, grown);
    newTranslations.push(...grown);
  });
  console.log(`grow:site: ${Math.min(b + BATCH, components.length)} components: ${added.toLocaleString('en')} units`);
}
if (postgres && perComponent >= 1) {
  const indexed = performance.now();
  await store.write(async (tx) => {
    await tx.prepare("SET LOCAL maintenance_work_mem = '1GB'").run();
    for (const definition of trigramIndexes) await tx.prepare(definition).run();
  });
  console.log(`grow:site: ${trigramIndexes.length} trigram indexes of unit_search built again in ${((performance.now() - indexed) / 1000).toFixed(0)} s`);
  // statistics and the visibility map of every table the growth wrote, as after a first load (Store.settleLoad)
  const settled = performance.now();
  await store.settleLoad(['units', 'unit_search', 'checks', 'translations', 'translation_stats']);
  console.log(`grow:site: VACUUM and ANALYZE in ${((performance.now() - settled) / 1000).toFixed(0)} s`);
}

// consistent: a sample of the translations (new and old), each one's statistics against its units counted here
const sample = await sql.rows<{ id: number; total: number; translated: number; fuzzy: number; approved: number; failing: number; total_words: number }>(
  `SELECT translation_id AS id, total, translated, fuzzy, approved, failing, total_words FROM translation_stats ORDER BY (translation_id * 7919) % 10007 LIMIT ${SAMPLE}`,
);
let wrong = 0;
for (const s of sample) {
  const counted = await sql.row<typeof s>(
    `SELECT min(translation_id) AS id, count(*) AS total, count(*) FILTER (WHERE state >= 20) AS translated, count(*) FILTER (WHERE state = 10) AS fuzzy,
       count(*) FILTER (WHERE state = 30) AS approved, count(*) FILTER (WHERE EXISTS (SELECT 1 FROM checks k WHERE k.unit_id = units.id AND k.dismissed = 0)) AS failing,
       coalesce(sum(num_words), 0) AS total_words
     FROM units WHERE translation_id = ?`,
    s.id,
  );
  if (JSON.stringify({ ...counted, id: s.id }) !== JSON.stringify(s)) {
    wrong++;
    console.log(`grow:site: translation ${s.id}: statistics ${JSON.stringify(s)}, counted ${JSON.stringify(counted)}`);
  }
}
// SQLite: its quick_check; PostgreSQL: the search table holds every unit, and each sampled translation's rows there
// are its units' texts lowercased as the insert trigger writes them (what a synced unit would have)
let integrity: string;
if (postgres) {
  const searchRows = Number(await sql.value('SELECT count(*) FROM unit_search'));
  const units = Number(await sql.value('SELECT count(*) FROM units'));
  const pending = Number(await sql.value('SELECT count(*) FROM unit_search_pending'));
  const ids = sample.map((s) => s.id).join(',') || '0';
  const differ = Number(
    await sql.value(
      `SELECT count(*) FROM units u LEFT JOIN unit_search s ON s.id = u.id WHERE u.translation_id IN (${ids}) AND (s.id IS NULL
         OR (s.translation_id, s.source, s.target, s.context) IS DISTINCT FROM
           (u.translation_id, lower(u.source COLLATE "und-x-icu"), lower(u.target COLLATE "und-x-icu"), lower(u.context COLLATE "und-x-icu")))`,
    ),
  );
  integrity =
    searchRows === units && pending === 0 && differ === 0
      ? 'ok'
      : `${searchRows} rows for ${units} units, ${pending} ranges pending, ${differ} sampled rows differ`;
} else {
  integrity = (await sql.value<string>('PRAGMA quick_check')) ?? 'no answer';
}
const unitsAfter = Number(await sql.value('SELECT count(*) FROM units'));
const translationsAfter = Number(await sql.value('SELECT count(*) FROM translations'));
await store.close();
console.log(
  `grow:site: ${unitsAfter.toLocaleString('en')} units in ${translationsAfter.toLocaleString('en')} translations (${newTranslations.length.toLocaleString('en')} added) in ${(
    (performance.now() - started) / 1000
  ).toFixed(
    0,
  )} s; statistics of ${sample.length} sampled translations against their units: ${wrong} differ; ${postgres ? "PostgreSQL search table (every unit; the sample's texts)" : 'SQLite quick_check'}: ${integrity}`,
);
process.exit(wrong === 0 && integrity === 'ok' ? 0 : 1);
