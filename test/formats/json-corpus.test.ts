// Every JSON file of the shared corpus through the JSON formats: counts against the corpus README, round trips, one-line edits.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ParsedUnit, State } from '../../src/domain/unit.js';
import type { FormatContext, FormatId, ParsedFile, UnitWrite } from '../../src/formats/format.js';
import { getFormat } from '../../src/formats/registry.js';
import { describeCorpus } from '../helpers/corpus.js';
import { changedLines } from './conformance.js';

interface ReadmeRow {
  leaves: number;
  nonEmpty: number;
  pluralLike: number;
}

/** The per-file tables of the corpus README: `| \`path\` | size | leaf strings | non-empty | depth | plural-like | pipes |`. */
function readmeRows(corpus: string): Map<string, ReadmeRow> {
  const rows = new Map<string, ReadmeRow>();
  const readme = readFileSync(path.join(corpus, 'README.md'), 'utf8');
  for (const m of readme.matchAll(/^\| `([^`]+\.json)` \| [^|]+ \| (\d+) \| (\d+) \| \d+ \| (\d+) \| \d+ \|$/gm)) {
    rows.set(m[1]!, { leaves: Number(m[2]), nonEmpty: Number(m[3]), pluralLike: Number(m[4]) });
  }
  return rows;
}

/** Independent counts with JSON.parse (which keeps the last of repeated keys, as Weblate does). */
function rawCounts(bytes: Uint8Array) {
  let leaves = 0;
  let nonEmpty = 0;
  let pluralLike = 0;
  const keys: string[] = [];
  const walk = (value: unknown, key: string | null): void => {
    if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, k);
      return;
    }
    leaves++;
    if (typeof value === 'string' && value !== '') nonEmpty++;
    if (key !== null) {
      keys.push(key);
      if (/_(plural|zero|one|two|few|many|other|\d)$/.test(key)) pluralLike++;
    }
  };
  walk(JSON.parse(new TextDecoder().decode(bytes)), null);
  return { leaves, nonEmpty, pluralLike, keys, data: JSON.parse(new TextDecoder().decode(bytes)) };
}

interface Component {
  name: string;
  format: FormatId;
  dir: string;
  template: string;
  /** Files in the directory that the component's mask must not pick up. */
  exclude?: string[];
}

const COMPONENTS: Component[] = [
  { name: 'uptime-kuma (flat json)', format: 'json', dir: 'louislam-uptime-kuma/src/lang', template: 'en.json' },
  { name: 'Lemmy frontend (i18next v3)', format: 'i18next', dir: 'LemmyNet-lemmy-translations/frontend', template: 'en.json' },
  { name: 'Lemmy backend (flat json)', format: 'json', dir: 'LemmyNet-lemmy-translations/backend', template: 'en.json' },
  {
    name: 'excalidraw (json-nested)',
    format: 'json-nested',
    dir: 'excalidraw-excalidraw/packages/excalidraw/locales',
    template: 'en.json',
    exclude: ['percentages.json'],
  },
];

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

function sameTargetEdits(store: ParsedFile): UnitWrite[] {
  return store.units.map((u) => ({ context: u.context, source: u.source, target: u.target, state: u.state }));
}

function comparable(units: ParsedUnit[]) {
  return units.map((u) => ({ context: u.context, source: u.source, target: u.target, state: u.state, idHash: u.idHash }));
}

describeCorpus('json formats over the corpus', (corpus) => {
  const readme = readmeRows(corpus);

  it('finds the README tables for every corpus JSON file', () => {
    for (const c of COMPONENTS) {
      for (const file of readdirSync(path.join(corpus, c.dir))) {
        const relative = path.join(c.dir, file).split(path.sep).slice(1).join('/');
        expect(readme.has(relative), relative).toBe(true);
      }
    }
  });

  for (const c of COMPONENTS) {
    describe(c.name, () => {
      const format = getFormat(c.format);
      const dir = path.join(corpus, c.dir);
      const files = readdirSync(dir)
        .filter((f) => f.endsWith('.json') && !c.exclude?.includes(f))
        .sort();
      const templateBytes = readFileSync(path.join(dir, c.template));
      const template = format.parse(templateBytes, { filename: c.template, language: 'en', sourceLanguage: 'en' });
      const templateData = rawCounts(templateBytes).data as Record<string, unknown>;

      for (const file of files) {
        const language = file.replace(/\.json$/, '');
        const bytes = readFileSync(path.join(dir, file));
        const row = readme.get(`${c.dir.split('/').slice(1).join('/')}/${file}`)!;
        const bilingualCtx: FormatContext = { filename: file, language, sourceLanguage: 'en' };
        const monoCtx: FormatContext = { ...bilingualCtx, template };

        describe(file, () => {
          const raw = rawCounts(bytes);
          const bilingual = format.parse(bytes, bilingualCtx);
          const mono = format.parse(bytes, monoCtx);

          it('has the leaf counts the README lists', () => {
            expect(row).toBeDefined();
            expect(raw.leaves).toBe(row.leaves);
            expect(raw.nonEmpty).toBe(row.nonEmpty);
            expect(raw.pluralLike).toBe(row.pluralLike);
          });

          it('lists one unit per leaf, i18next v3 plural keys merged into one unit per group', () => {
            // json / json-nested: every leaf is a unit. i18next v3: `k`+`k_plural` is one unit and
            // `k_0`…`k_n` is one unit, so Weblate shows fewer units than the file has leaves;
            // `_one`/`_other` keys are ordinary keys in v3 (Lemmy's max_invites_allowed_*).
            let expected = raw.leaves;
            if (c.format === 'i18next') {
              const plural = raw.keys.filter((k) => k.endsWith('_plural')).length;
              const indexed = raw.keys.filter((k) => /_\d$/.test(k)).length;
              const groups = raw.keys.filter((k) => k.endsWith('_0')).length;
              expected = raw.leaves - plural - indexed + groups;
              const multiForm = plural + raw.keys.filter((k) => k.endsWith('_1')).length;
              expect(bilingual.units.filter((u) => u.target.length > 1)).toHaveLength(multiForm);
            }
            expect(bilingual.units).toHaveLength(expected);
            expect(new Set(bilingual.units.map((u) => u.idHash)).size).toBe(expected);
          });

          it("lists the template's units, translated where the file has a non-empty value", () => {
            expect(mono.units).toHaveLength(template.units.length);
            // the template parsed alone is bilingual-shaped: its keys are the sources
            expect(mono.units.map((u) => u.context)).toEqual(template.units.map((u) => u.source[0]));
            if (c.format !== 'json-nested' && c.format !== 'i18next') {
              const data = raw.data as Record<string, unknown>;
              const translated = Object.keys(templateData).filter((k) => typeof data[k] === 'string' && data[k] !== '').length;
              expect(mono.units.filter((u) => u.state === State.TRANSLATED)).toHaveLength(translated);
            }
            const bilingualTranslated = new Map(bilingual.units.map((u) => [u.source[0], u.target]));
            for (const u of mono.units) expect(u.target).toEqual(bilingualTranslated.get(u.context) ?? ['']);
          });

          it('writes the file back byte for byte, also when every unit is rewritten with its own text', () => {
            expect(Buffer.from(format.write(bytes, [], bilingualCtx)).equals(bytes)).toBe(true);
            const all = format.write(bytes, sameTargetEdits(bilingual), bilingualCtx);
            expect(Buffer.from(all).equals(bytes)).toBe(true);
          });

          it('changes one line when one unit is edited', () => {
            const translated = mono.units.filter((u) => u.state === State.TRANSLATED && u.target.length === 1);
            const unit = translated[Math.floor(translated.length / 3)];
            expect(unit).toBeDefined();
            const out = format.write(
              bytes,
              [{ context: unit!.context, source: unit!.source, target: ['Edited « ✓ » "quoted"\n'], state: State.TRANSLATED }],
              monoCtx,
            );
            const { removed, added } = changedLines(decoder.decode(bytes), decoder.decode(out));
            expect(removed).toHaveLength(1);
            expect(added).toHaveLength(1);
            expect(added[0]).toContain('Edited « ✓ » \\"quoted\\"\\n');
            const again = format.parse(out, monoCtx);
            const others = (units: ParsedUnit[]) => comparable(units.filter((u) => u.idHash !== unit!.idHash));
            expect(others(again.units)).toEqual(others(mono.units));
            expect(again.units.find((u) => u.idHash === unit!.idHash)?.target).toEqual(['Edited « ✓ » "quoted"\n']);
          });

          const inFile = new Set(bilingual.units.map((u) => u.source[0]));
          const missing = mono.units.find((u) => !inFile.has(u.context) && u.source.length === 1);
          if (missing) {
            it('adds a missing template key where Weblate appends it', () => {
              const out = decoder.decode(
                format.write(bytes, [{ context: missing.context, source: missing.source, target: ['Neu'], state: State.TRANSLATED }], monoCtx),
              );
              const { removed, added } = changedLines(decoder.decode(bytes), out);
              expect(removed.length).toBeLessThanOrEqual(2);
              expect(added.join('\n')).toContain('"Neu"');
              expect(format.parse(new TextEncoder().encode(out), monoCtx).units.find((u) => u.context === missing.context)?.target).toEqual(['Neu']);
            });
          }
        });
      }
    });
  }

  describe('traps', () => {
    it("Lemmy en.json repeats keys: first position, last value (Weblate's dict)", () => {
      const bytes = readFileSync(path.join(corpus, 'LemmyNet-lemmy-translations/frontend/en.json'));
      const text = decoder.decode(bytes);
      const store = getFormat('i18next').parse(bytes, { filename: 'en.json', language: 'en', sourceLanguage: 'en' });
      const created = store.units.filter((u) => u.source[0] === 'created');
      expect(created).toHaveLength(1);
      expect(created[0]!.target).toEqual([JSON.parse(text).created]);
      // listed where "created" first appears (after edit_your_site), not at its last line
      const lines = text.split('\n');
      const first = lines.findIndex((l) => l.trimStart().startsWith('"created":'));
      const before = /"([^"]+)":/.exec(lines[first - 1]!)![1];
      const index = store.units.findIndex((u) => u.source[0] === 'created');
      expect(store.units[index - 1]!.source[0]).toBe(before);
      expect(lines.slice(first + 1).some((l) => l.trimStart().startsWith('"created":'))).toBe(true);
    });

    it('excalidraw plural-lookalike keys are ordinary keys in json-nested (and would merge in i18next v4)', () => {
      const bytes = readFileSync(path.join(corpus, 'excalidraw-excalidraw/packages/excalidraw/locales/en.json'));
      const ctx = { filename: 'en.json', language: 'en', sourceLanguage: 'en' };
      const nested = getFormat('json-nested').parse(bytes, ctx);
      const lookalikes = nested.units.filter((u) => /_(zero|one|two|few|many|other|plural|\d)$/.test(u.source[0]!));
      expect(lookalikes.length).toBe(rawCounts(bytes).pluralLike);
      for (const u of lookalikes) expect(u.target).toHaveLength(1);
      expect(nested.units.some((u) => u.source[0]!.endsWith('arrowhead_crowfoot_one'))).toBe(true);
      const v4 = getFormat('i18nextv4').parse(bytes, ctx);
      expect(v4.units.length).toBeLessThan(nested.units.length);
    });

    it('excalidraw percentages.json parses (numbers as units) but matches no template key', () => {
      const dir = path.join(corpus, 'excalidraw-excalidraw/packages/excalidraw/locales');
      const bytes = readFileSync(path.join(dir, 'percentages.json'));
      const f = getFormat('json-nested');
      const bilingual = f.parse(bytes, { filename: 'percentages.json', language: 'percentages', sourceLanguage: 'en' });
      const data = JSON.parse(decoder.decode(bytes)) as Record<string, number>;
      expect(bilingual.units.map((u) => u.target[0])).toEqual(Object.values(data).map(String));
      const template = f.parse(readFileSync(path.join(dir, 'en.json')), { filename: 'en.json', language: 'en', sourceLanguage: 'en' });
      const mono = f.parse(bytes, { filename: 'percentages.json', language: 'percentages', sourceLanguage: 'en', template });
      expect(mono.units.filter((u) => u.state !== State.EMPTY)).toHaveLength(0);
    });
  });
});
