// TBX over the real-world corpus: entry counts from the corpus README, byte-identical round trips, one-hunk edits.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { State } from '../../src/domain/unit.js';
import type { FormatContext } from '../../src/formats/format.js';
import { tbxFormat } from '../../src/formats/tbx/index.js';
import { readTbx } from '../../src/formats/tbx/read.js';
import { describeCorpus } from '../helpers/corpus.js';
import { changedLines } from './conformance.js';

interface CorpusFile {
  file: string;
  language: string;
  sourceLanguage: string;
  /** From the corpus README tables: termEntry (conceptEntry) count and non-empty target terms. */
  entries: number;
  filled: number;
  /** Units Weblate lists, when it differs from the entries (deprecated, blank or duplicate entries). */
  units?: number;
  readonly?: number;
}

const SLICER: Array<[string, number, number]> = [
  ['ar_SA', 148, 145],
  ['ca', 247, 205],
  ['cs', 148, 137],
  ['de', 148, 9],
  ['en_US', 146, 0],
  ['es_419', 148, 136],
  ['fr', 174, 168],
  ['he', 147, 0],
  ['pt_BR', 148, 133],
  ['zh_Hans', 153, 17],
];

const TERMATE = 'DeNederlandscheBank-termate/data/examples/Example_Astronomy_DCA_VALID.tbx';

const FILES: CorpusFile[] = [
  ...SLICER.map(([language, entries, filled]) => ({
    file: `Slicer-SlicerLanguageTranslations/glossary/${language}.tbx`,
    language,
    sourceLanguage: 'en',
    entries,
    filled,
  })),
  { file: 'pan93412-kde-cn/terms.tbx', language: 'zh_CN', sourceLanguage: 'en_US', entries: 137, filled: 137 },
  // TBX v3: 39 concepts have en and es; 6 have only zu (blank for es, read-only for zu).
  { file: TERMATE, language: 'es', sourceLanguage: 'en', entries: 45, filled: 39, units: 39 },
  { file: TERMATE, language: 'zu', sourceLanguage: 'en', entries: 45, filled: 6, units: 45, readonly: 6 },
];

const decoder = new TextDecoder();

describeCorpus('format tbx: corpus', (dir) => {
  for (const c of FILES) {
    describe(`${c.file} (${c.language})`, () => {
      const bytes = new Uint8Array(readFileSync(path.join(dir, c.file)));
      const ctx: FormatContext = { filename: c.file, language: c.language, sourceLanguage: c.sourceLanguage };
      const store = tbxFormat.parse(bytes, ctx);

      it('reads the entries and filled terms the README counts, and lists each id once', () => {
        const model = readTbx(bytes, ctx);
        expect(model.entries).toHaveLength(c.entries);
        expect(model.entries.filter((e) => e.target !== '')).toHaveLength(c.filled);
        const distinct = new Set(model.entries.filter((e) => e.source !== '' || e.target !== '').map((e) => `${e.source}\u0000${e.context}`));
        expect(store.units).toHaveLength(c.units ?? distinct.size);
        expect(new Set(store.units.map((u) => u.idHash)).size).toBe(store.units.length);
        expect(store.units.filter((u) => u.state === State.READONLY)).toHaveLength(c.readonly ?? 0);
        for (const u of store.units) {
          if (u.state !== State.READONLY) expect(u.state).toBe(u.target[0] === '' ? State.EMPTY : State.TRANSLATED);
        }
      });

      it('writes the file back byte for byte, and an edit undone gives the original bytes', () => {
        expect(Buffer.from(tbxFormat.write(bytes, [], ctx)).equals(Buffer.from(bytes))).toBe(true);
        const unit = store.units.find((u) => u.state !== State.READONLY) ?? store.units[0];
        const edited = tbxFormat.write(bytes, [{ context: unit!.context, source: unit!.source, target: ['<changed> & back'], state: State.TRANSLATED }], ctx);
        const back = tbxFormat.write(edited, [{ context: unit!.context, source: unit!.source, target: unit!.target, state: unit!.state }], ctx);
        expect(tbxFormat.parse(back, ctx).units).toEqual(store.units);
        if (unit!.target[0] !== '') expect(Buffer.from(back).equals(Buffer.from(bytes))).toBe(true);
      });

      it('changes one line for one edit of an existing term and nothing else', () => {
        const withTerm = new Set(
          readTbx(bytes, ctx)
            .entries.filter((e) => e.targetTerm)
            .map((e) => e.unit),
        );
        const editable = store.units.filter((u) => u.state !== State.READONLY && withTerm.has(u));
        for (const unit of [editable[0], editable.at(-1)]) {
          if (!unit) continue;
          const out = tbxFormat.write(bytes, [{ context: unit.context, source: unit.source, target: ['nový termín'], state: State.TRANSLATED }], ctx);
          const { removed, added } = changedLines(decoder.decode(bytes), decoder.decode(out));
          expect(removed).toHaveLength(1);
          expect(added).toHaveLength(1);
          expect(added[0]).toContain('<term>nový termín</term>');
          const again = tbxFormat.parse(out, ctx);
          expect(again.units.map((u) => (u.idHash === unit.idHash ? { ...u, target: unit.target, state: unit.state } : u))).toEqual(store.units);
        }
      });

      it('only adds lines when the target language set is missing', () => {
        const withoutTerm = readTbx(bytes, ctx).entries.find((e) => e.unit && !e.targetSet && e.unit.state !== State.READONLY)?.unit;
        if (!withoutTerm) return;
        const out = tbxFormat.write(bytes, [{ context: withoutTerm.context, source: withoutTerm.source, target: ['nový'], state: State.TRANSLATED }], ctx);
        const { removed, added } = changedLines(decoder.decode(bytes), decoder.decode(out));
        expect(removed).toEqual([]);
        expect(added.join('\n')).toContain('<term>nový</term>');
        expect(tbxFormat.parse(out, ctx).units.find((u) => u.idHash === withoutTerm.idHash)?.target).toEqual(['nový']);
      });

      it('adds and removes entries without touching the others', () => {
        // A term listed twice would surface its second entry once the first is gone; remove a unique one.
        const entries = readTbx(bytes, ctx).entries;
        const gone = store.units.find((u) => entries.filter((e) => e.source === u.source[0] && e.context === u.context).length === 1);
        if (!gone) throw new Error('no unique unit');
        const out = tbxFormat.write(
          bytes,
          [
            { context: '', source: ['brand-new term'], target: ['nový'], state: State.TRANSLATED },
            { context: gone.context, source: gone.source, target: gone.target, state: gone.state, remove: true },
          ],
          ctx,
        );
        const again = tbxFormat.parse(out, ctx);
        expect(again.units.at(-1)).toMatchObject({ source: ['brand-new term'], target: ['nový'] });
        const strip = (units: typeof store.units) => units.map(({ position: _, ...u }) => u);
        expect(strip(again.units.slice(0, -1))).toEqual(strip(store.units.filter((u) => u !== gone)));
      });
    });
  }
});
