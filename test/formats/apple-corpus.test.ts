// Apple .strings and .stringsdict over the corpus: Translate Toolkit parity file by file, round trips, one-edit writes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { beforeAll, expect, it } from 'vitest';
import { type ParsedUnit, State } from '../../src/domain/unit.js';
import { readPlainShape, readPlainUnits } from '../../src/formats/apple/stringsdict.js';
import type { FormatContext, FormatId, ParsedFile } from '../../src/formats/format.js';
import { getFormat } from '../../src/formats/registry.js';
import { describeCorpus } from '../helpers/corpus.js';
import { type ToolkitResult, describeToolkit, toolkitStores } from '../helpers/toolkit.js';

const ROOT = 'mastodon-mastodon-ios';
const L10N = 'MastodonSDK/Sources/MastodonLocalization/Resources';

/** Mastodon's components as Weblate would hold them: file mask, format, template (null: bilingual). */
const COMPONENTS: { mask: string; format: FormatId; template: string | null; files: number }[] = [
  { mask: `${L10N}/*.lproj/Localizable.strings`, format: 'strings-utf8', template: `${L10N}/Base.lproj/Localizable.strings`, files: 10 },
  { mask: `${L10N}/*.lproj/Localizable.stringsdict`, format: 'stringsdict', template: `${L10N}/Base.lproj/Localizable.stringsdict`, files: 10 },
  // the file names' case differs (infoPlist/InfoPlist): a case-insensitive mask finds all four
  { mask: 'Mastodon/Resources/*.lproj/[Ii]nfoPlist.strings', format: 'strings-utf8', template: 'Mastodon/Resources/Base.lproj/infoPlist.strings', files: 4 },
  { mask: 'Mastodon/Supporting Files/Settings.bundle/*.lproj/Root.strings', format: 'strings', template: null, files: 1 },
];

/** The code in a path's `<code>.lproj` folder; the template is read in the source language. */
function lprojCode(file: string, template: string | null): string {
  if (file === template) return 'en';
  return /([^/]+)\.lproj\//.exec(file)![1]!;
}

interface Compared {
  context: string;
  source: string[];
  target: string[];
  state: number;
  idHash: bigint;
}

function ours(u: ParsedUnit): Compared {
  return { context: u.context, source: u.source, target: u.target, state: u.state, idHash: u.idHash };
}

/** Weblate's units from the toolkit's answer: comment-only entries out, the first of a repeated key kept. */
function theirs(result: ToolkitResult): Compared[] {
  const seen = new Set<bigint>();
  const units: Compared[] = [];
  for (const u of result.units) {
    if (u.blank || u.header || seen.has(u.weblate.idHash)) continue;
    seen.add(u.weblate.idHash);
    const { context, source, target, idHash } = u.weblate;
    units.push({ context, source, target, state: target.some((t) => t !== '') ? State.TRANSLATED : State.EMPTY, idHash });
  }
  return units;
}

describeCorpus('formats strings, stringsdict: corpus', (corpus) => {
  const dir = path.join(corpus, ROOT);
  const cases: { component: number; file: string; format: FormatId; template: string | null; bytes: Uint8Array; ctx: FormatContext; store: ParsedFile }[] = [];
  for (const [component, c] of COMPONENTS.entries()) {
    const format = getFormat(c.format);
    const template = c.template
      ? format.parseTemplate(readFileSync(path.join(dir, c.template)), { filename: c.template, language: 'en', sourceLanguage: 'en' }, false)
      : null;
    for (const file of fg.sync(c.mask, { cwd: dir }).sort()) {
      const bytes = readFileSync(path.join(dir, file));
      const ctx: FormatContext = { filename: file, language: lprojCode(file, c.template), sourceLanguage: 'en', template };
      // the template as a sync reads it: once, as a translation of itself
      const store = file === c.template ? format.parseTemplate(bytes, { ...ctx, template: null }, true) : format.parse(bytes, ctx);
      cases.push({ component, file, format: c.format, template: c.template, bytes, ctx, store });
    }
  }

  it('finds every .strings and .stringsdict file of the corpus under the four components', () => {
    const all = fg.sync('**/*.{strings,stringsdict}', { cwd: dir });
    expect(cases.map((c) => c.file).sort()).toEqual(all.sort());
    for (const [i, c] of COMPONENTS.entries())
      expect(
        cases.filter((x) => x.component === i),
        c.mask,
      ).toHaveLength(c.files);
  });

  it('lists the keys the corpus README counts (626 in Base, 614 translated in the others, 30 stringsdict entries)', () => {
    const base = cases.find((c) => c.file === `${L10N}/Base.lproj/Localizable.strings`)!;
    expect(base.store.units).toHaveLength(626);
    const de = cases.find((c) => c.file === `${L10N}/de.lproj/Localizable.strings`)!;
    expect(de.store.units.filter((u) => u.state === State.TRANSLATED)).toHaveLength(614);
    const dict = cases.find((c) => c.file === `${L10N}/ar.lproj/Localizable.stringsdict`)!;
    expect(dict.store.units.filter((u) => !u.context.includes(':'))).toHaveLength(30);
    expect(dict.store.units.find((u) => u.source.length > 1)?.target).toHaveLength(6);
  });

  it('writes every file back byte for byte, and one edit changes that value only', () => {
    for (const { file, format, bytes, ctx, store } of cases) {
      const f = getFormat(format);
      expect(Buffer.from(f.write(bytes, [], ctx)).equals(Buffer.from(bytes)), file).toBe(true);
      const unit = store.units.find((u) => u.state === State.TRANSLATED && u.source.length === 1);
      if (!unit) continue;
      const out = f.write(bytes, [{ context: unit.context, source: unit.source, target: ['Edited "value"'], state: State.TRANSLATED }], ctx);
      const again = f.parse(out, ctx);
      expect(again.units.find((u) => u.idHash === unit.idHash)?.target, file).toEqual(['Edited "value"']);
      expect(again.units.filter((u) => u.idHash !== unit.idHash).map(ours), file).toEqual(store.units.filter((u) => u.idHash !== unit.idHash).map(ours));
      expect(out.length - bytes.length, file).toBeLessThan(200);
    }
  });

  it('reads every .stringsdict of the corpus without tokens (its plain shape), with the units the token reader reads', () => {
    const dicts = cases.filter((c) => c.format === 'stringsdict');
    expect(dicts).toHaveLength(10);
    for (const { file, bytes } of dicts) {
      const units = readPlainShape(bytes);
      expect(units, file).not.toBeNull();
      expect(units, file).toEqual(readPlainUnits(bytes, file));
    }
  });

  describeToolkit('formats strings, stringsdict: Translate Toolkit parity', () => {
    const results = new Map<string, ToolkitResult | Error>();
    beforeAll(async () => {
      const answers = await toolkitStores(
        cases.map((c) => ({
          file: path.join(dir, c.file),
          store: c.format,
          template: c.template ? path.join(dir, c.template) : null,
          targetLanguage: c.ctx.language,
          sourceLanguage: 'en',
        })),
      );
      cases.forEach((c, i) => results.set(c.file, answers[i]!));
    }, 120_000);

    for (const c of cases) {
      it(`${c.file}: context, source, target, state and id_hash as the toolkit reads them`, () => {
        const result = results.get(c.file)!;
        if (result instanceof Error) throw result;
        expect(c.store.units.map(ours)).toEqual(theirs(result));
      });
    }
  });
});
