// Android resources over the corpus: Translate Toolkit parity file by file, byte-identical round trips, one-edit writes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { beforeAll, expect, it } from 'vitest';
import { calculateHash } from '../../src/domain/hash.js';
import { type ParsedUnit, State } from '../../src/domain/unit.js';
import type { FormatContext, ParsedFile } from '../../src/formats/format.js';
import { getFormat } from '../../src/formats/registry.js';
import { describeCorpus } from '../helpers/corpus.js';
import { type ToolkitResult, describeToolkit, toolkitStores } from '../helpers/toolkit.js';
import { changedLines } from './conformance.js';

const aresource = getFormat('aresource');
const decoder = new TextDecoder();
const RES = 'TeamNewPipe-NewPipe/app/src/main/res';
const TEMPLATE = 'values/strings.xml';

/** The language code Weblate takes from the folder (`values-pt-rBR` → `pt-rBR`); the template is the source language. */
function folderCode(file: string): string {
  const folder = file.split('/')[0]!;
  return folder === 'values' ? 'en' : folder.slice('values-'.length);
}

interface Compared {
  context: string;
  source: string[];
  target: string[];
  state: number;
  idHash: bigint;
}

/**
 * Where Debian's translate-toolkit (3.8.x) reads differently from the toolkit Weblate runs today, whose reading
 * tms follows. Each rule undoes one difference on both sides; a unit that differs in any other way fails.
 */
const VERSION_RULES: { name: string; apply: (forms: string[], language: string, side: 'debian' | 'tms') => string[] }[] = [
  {
    // The newer reader collapses every Unicode space outside quotes (Python's \s), a no-break space too.
    name: 'unicode-space',
    apply: (forms) => forms.map((f) => f.replace(/[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/g, ' ').replace(/ {2,}/g, ' ')),
  },
  {
    // The older reader drops the space before an escaped \n (`text \n` read as `text` + newline).
    name: 'space-before-newline',
    apply: (forms) => forms.map((f) => f.replace(/ \n/g, '\n')),
  },
  {
    // The older toolkit's CLDR table still gives Hebrew `many`; CLDR 42 and the newer table do not.
    name: 'hebrew-many',
    apply: (forms, language, side) =>
      side === 'debian' && language.split(/[-_+]/)[0] === 'he' && forms.length === 4 ? [forms[0]!, forms[1]!, forms[3]!] : forms,
  },
];

function ours(u: ParsedUnit): Compared {
  return { context: u.context, source: u.source, target: u.target, state: u.state, idHash: u.idHash };
}

/** Weblate's units built from the toolkit's template join: blank entries out, the first of a repeated key kept. */
function theirs(result: ToolkitResult): Compared[] {
  const seen = new Set<string>();
  const units: Compared[] = [];
  for (const u of result.units) {
    if (u.blank || u.header || seen.has(u.weblate.context)) continue;
    seen.add(u.weblate.context);
    const { context, source, target, idHash } = u.weblate;
    const state = !u.translatable ? State.READONLY : target.some((t) => t !== '') ? State.TRANSLATED : State.EMPTY;
    units.push({ context, source, target, state, idHash });
  }
  return units;
}

/** The rules needed to make a field equal, or null when no combination of them does. */
function explain(debian: string[], mine: string[], language: string): string[] | null {
  if (JSON.stringify(debian) === JSON.stringify(mine)) return [];
  let a = debian;
  let b = mine;
  const used: string[] = [];
  for (const rule of VERSION_RULES) {
    const na = rule.apply(a, language, 'debian');
    const nb = rule.apply(b, language, 'tms');
    if (JSON.stringify(na) !== JSON.stringify(a) || JSON.stringify(nb) !== JSON.stringify(b)) used.push(rule.name);
    a = na;
    b = nb;
    if (JSON.stringify(a) === JSON.stringify(b)) return used;
  }
  return null;
}

describeCorpus('format aresource: corpus', (corpus) => {
  const dir = path.join(corpus, RES);
  const files = fg.sync('values*/strings.xml', { cwd: dir }).sort();
  const templateBytes = readFileSync(path.join(dir, TEMPLATE));
  const template = aresource.parseTemplate(templateBytes, { filename: TEMPLATE, language: 'en', sourceLanguage: 'en' }, false);
  const stores = new Map<string, { bytes: Uint8Array; ctx: FormatContext; store: ParsedFile }>();
  for (const file of files) {
    const bytes = readFileSync(path.join(dir, file));
    const ctx: FormatContext = { filename: file, language: folderCode(file), sourceLanguage: 'en', template };
    // the template as a sync reads it: once, as a translation of itself
    const store = file === TEMPLATE ? aresource.parseTemplate(bytes, { ...ctx, template: null }, true) : aresource.parse(bytes, ctx);
    stores.set(file, { bytes, ctx, store });
  }

  it('reads every strings.xml of NewPipe: 14 files, 765 units each, keyed by name', () => {
    expect(files).toHaveLength(14);
    for (const { store } of stores.values()) {
      expect(store.units).toHaveLength(765);
      expect(store.units[0]!.idHash).toBe(calculateHash(store.units[0]!.context));
    }
    // the template's one translatable="false" string is read-only everywhere
    expect(stores.get(TEMPLATE)!.store.units.filter((u) => u.state === State.READONLY)).toHaveLength(1);
  });

  it('writes every file back byte for byte, and one edit changes one line', () => {
    for (const [file, { bytes, ctx, store }] of stores) {
      expect(Buffer.from(aresource.write(bytes, [], ctx)).equals(Buffer.from(bytes)), file).toBe(true);
      const unit = store.units.find((u) => u.source.length === 1 && u.target[0] !== '' && u.state === State.TRANSLATED);
      if (!unit) continue;
      const out = aresource.write(bytes, [{ context: unit.context, source: unit.source, target: ["Edited 'value'"], state: State.TRANSLATED }], ctx);
      const { removed, added } = changedLines(decoder.decode(bytes), decoder.decode(out));
      expect(removed, file).toHaveLength(1);
      expect(added[0], file).toContain(`name="${unit.context}">Edited \\'value\\'</string>`);
      expect(aresource.parse(out, ctx).units.find((u) => u.context === unit.context)?.target).toEqual(["Edited 'value'"]);
    }
  });

  describeToolkit('format aresource: Translate Toolkit parity', () => {
    const results = new Map<string, ToolkitResult | Error>();
    beforeAll(async () => {
      const answers = await toolkitStores(
        files.map((file) => ({
          file: path.join(dir, file),
          store: 'aresource',
          template: path.join(dir, TEMPLATE),
          targetLanguage: folderCode(file),
          sourceLanguage: 'en',
        })),
      );
      files.forEach((file, i) => results.set(file, answers[i]!));
    }, 120_000);

    for (const file of files) {
      it(`${file}: context, source, target, state and id_hash as the toolkit reads them`, () => {
        const result = results.get(file)!;
        if (result instanceof Error) throw result;
        const expected = theirs(result);
        const actual = stores.get(file)!.store.units.map(ours);
        expect(actual.map((u) => u.context)).toEqual(expected.map((u) => u.context));
        const language = folderCode(file);
        const unexplained: string[] = [];
        const used = new Map<string, number>();
        for (const [i, mine] of actual.entries()) {
          const debian = expected[i]!;
          expect(mine.idHash, mine.context).toBe(debian.idHash);
          expect(mine.state, mine.context).toBe(debian.state);
          for (const field of ['source', 'target'] as const) {
            const rules = explain(debian[field], mine[field], language);
            if (rules === null) unexplained.push(`${mine.context} ${field}: ${JSON.stringify(debian[field])} ≠ ${JSON.stringify(mine[field])}`);
            else for (const r of rules) used.set(r, (used.get(r) ?? 0) + 1);
          }
        }
        expect(unexplained).toEqual([]);
        for (const rule of used.keys()) expect(VERSION_RULES.map((r) => r.name)).toContain(rule);
      });
    }

    it('each version rule is needed somewhere in the corpus (none is dead weight)', () => {
      const needed = new Set<string>();
      for (const file of files) {
        const result = results.get(file)!;
        if (result instanceof Error) continue;
        const expected = theirs(result);
        for (const [i, mine] of stores.get(file)!.store.units.entries()) {
          for (const field of ['source', 'target'] as const) for (const r of explain(expected[i]![field], mine[field], folderCode(file)) ?? []) needed.add(r);
        }
      }
      expect([...needed].sort()).toEqual(VERSION_RULES.map((r) => r.name).sort());
    });
  });
});
