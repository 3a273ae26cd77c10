// One suite for every Format: each format supplies its data (files, expected units), the suite checks the rest.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FormatParseError } from '../../src/domain/errors.js';
import { type ParsedUnit, State } from '../../src/domain/unit.js';
import type { FormatContext, FormatId, ParsedFile, UnitWrite } from '../../src/formats/format.js';
import { getFormat } from '../../src/formats/registry.js';
import { repoRoot } from '../helpers/corpus.js';

export const FIXTURES = path.join(repoRoot, 'fixtures', 'formats');

/** Reads a fixture under fixtures/formats/. */
export function fixture(name: string): Uint8Array {
  return readFileSync(path.join(FIXTURES, name));
}

type ExpectedUnit = Partial<
  Pick<
    ParsedUnit,
    'context' | 'source' | 'target' | 'state' | 'location' | 'note' | 'flags' | 'explanation' | 'previousSource' | 'numWords' | 'idHash' | 'contentHash'
  >
>;

export interface ConformanceCase {
  /** What this file shows (e.g. "bilingual with plurals"). */
  name: string;
  /** Fixture file under fixtures/formats/. */
  file: string;
  language: string;
  sourceLanguage?: string;
  plurals?: number;
  /** Monolingual: the template fixture. */
  template?: string;
  count: number;
  /** Expected fields of units by listing index (0-based). */
  units?: Record<number, ExpectedUnit>;
  /** Edit one existing unit: the listing index and its new target/state. */
  edit?: { index: number; target: string[]; state?: typeof State.TRANSLATED | typeof State.FUZZY; maxChangedLines?: number; expectText?: string };
  /** Add a unit not yet in the file (for monolingual: a template key missing from the file). */
  add?: { write: UnitWrite; expectText?: string };
  /** Remove the unit at this index. */
  remove?: { index: number };
}

export interface ConformanceData {
  format: FormatId;
  cases: ConformanceCase[];
  /** New file from new_base (fixture) or the empty skeleton (null); expected unit count after parse. */
  create?: Array<{ base: string | null; language: string; template?: string; count: number; expectText?: string }>;
  /** Malformed inputs that must raise FormatParseError; line is checked when given. */
  bad?: Array<{ name: string; text: string | Uint8Array; line?: number }>;
}

const decoder = new TextDecoder();

function contextFor(c: { file: string; language: string; sourceLanguage?: string; plurals?: number; template?: string }, format: FormatId): FormatContext {
  const ctx: FormatContext = { filename: c.file, language: c.language, sourceLanguage: c.sourceLanguage ?? 'en', plurals: c.plurals };
  // the template read for its listing only, as a sync reads it when only the translations changed
  if (c.template) ctx.template = getFormat(format).parseTemplate(fixture(c.template), templateContext(c.template, ctx.sourceLanguage), false);
  return ctx;
}

function templateContext(file: string, sourceLanguage: string): FormatContext {
  return { filename: file, language: sourceLanguage, sourceLanguage };
}

/** Lines of `before` replaced in `after`, once the common head and tail are set aside. */
export function changedLines(before: string, after: string): { removed: string[]; added: string[] } {
  const a = before.split('\n');
  const b = after.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  return { removed: a.slice(head, a.length - tail), added: b.slice(head, b.length - tail) };
}

function comparable(u: ParsedUnit) {
  return { context: u.context, source: u.source, target: u.target, state: u.state, idHash: u.idHash };
}

function unitsExcept(store: ParsedFile, idHash: bigint) {
  return store.units.filter((u) => u.idHash !== idHash).map(comparable);
}

/** Runs the shared conformance suite for one format. */
export function runConformance(data: ConformanceData): void {
  const format = getFormat(data.format);
  describe(`format ${data.format}: conformance`, () => {
    for (const c of data.cases) {
      describe(c.name, () => {
        const bytes = fixture(c.file);
        const ctx = contextFor(c, data.format);
        const store = format.parse(bytes, ctx);

        it('lists the expected units', () => {
          expect(store.units).toHaveLength(c.count);
          expect(store.units.map((u) => u.position)).toEqual(store.units.map((_, i) => i + 1));
          for (const [index, fields] of Object.entries(c.units ?? {})) {
            expect(store.units[Number(index)], `unit ${index}`).toMatchObject(fields);
          }
          const ids = new Set(store.units.map((u) => u.idHash));
          expect(ids.size).toBe(store.units.length);
        });

        if (c.template) {
          const template = c.template;
          it('reads its template once: its own units as two reads list them, and no units when not asked', () => {
            const tbytes = fixture(template);
            const tctx = templateContext(template, ctx.sourceLanguage);
            const twice = format.parse(tbytes, { ...tctx, template: format.parse(tbytes, tctx) });
            const once = format.parseTemplate(tbytes, tctx, true);
            expect(once.units).toEqual(twice.units);
            expect(once.skipped ?? []).toEqual(twice.skipped ?? []);
            expect(once.pluralForms).toEqual(twice.pluralForms);
            expect(format.parseTemplate(tbytes, tctx, false).units).toEqual([]);
            // the file read against either template lists the same units (the listing-only one is `store`'s)
            expect(format.parse(bytes, { ...ctx, template: once }).units).toEqual(store.units);
            expect(format.parse(bytes, { ...ctx, template: format.parse(tbytes, tctx) }).units).toEqual(store.units);
          });
        }

        it('writes the file back byte for byte when nothing changed', () => {
          expect(Buffer.from(format.write(bytes, [], ctx)).equals(Buffer.from(bytes))).toBe(true);
        });

        if (c.edit) {
          const edit = c.edit;
          it("changes only the edited unit's text when one unit is edited", () => {
            const unit = store.units[edit.index];
            const state = edit.state ?? State.TRANSLATED;
            const out = format.write(bytes, [{ context: unit!.context, source: unit!.source, target: edit.target, state }], ctx);
            const { removed, added } = changedLines(decoder.decode(bytes), decoder.decode(out));
            expect(removed.length).toBeGreaterThan(0);
            expect(removed.length).toBeLessThanOrEqual(edit.maxChangedLines ?? 2);
            if (edit.expectText) expect(added.join('\n')).toContain(edit.expectText);
            const again = format.parse(out, ctx);
            const edited = again.units.find((u) => u.idHash === unit!.idHash);
            expect(edited?.target).toEqual(edit.target);
            expect(edited?.state).toBe(state);
            expect(unitsExcept(again, unit!.idHash)).toEqual(unitsExcept(store, unit!.idHash));
          });
        }

        if (c.add) {
          const add = c.add;
          it('adds a unit where the format puts new units', () => {
            const out = format.write(bytes, [add.write], ctx);
            const text = decoder.decode(out);
            if (add.expectText) expect(text).toContain(add.expectText);
            const again = format.parse(out, ctx);
            const added = again.units.find((u) => u.context === add.write.context && (ctx.template || u.source.join() === add.write.source.join()));
            expect(added?.target).toEqual(add.write.target);
            const before = store.units.map(comparable).filter((u) => u.context !== add.write.context || ctx.template == null);
            const after = again.units.map(comparable).filter((u) => u.idHash !== added?.idHash);
            expect(after).toEqual(before.filter((u) => u.idHash !== added?.idHash));
          });
        }

        if (c.remove) {
          const index = c.remove.index;
          it('removes a unit and nothing else', () => {
            const unit = store.units[index];
            const out = format.write(bytes, [{ context: unit!.context, source: unit!.source, target: unit!.target, state: unit!.state, remove: true }], ctx);
            const again = format.parse(out, ctx);
            if (ctx.template) {
              const gone = again.units.find((u) => u.idHash === unit!.idHash);
              expect(gone?.target.every((t) => t === '')).toBe(true);
            } else {
              expect(again.units.find((u) => u.idHash === unit!.idHash)).toBeUndefined();
              expect(again.units).toHaveLength(store.units.length - 1);
            }
            expect(unitsExcept(again, unit!.idHash)).toEqual(unitsExcept(store, unit!.idHash));
          });
        }
      });
    }

    for (const n of data.create ?? []) {
      it(`creates a new ${n.language} file from ${n.base ?? 'the empty skeleton'}`, () => {
        const ctx = contextFor({ file: `new.${format.extension}`, language: n.language, template: n.template }, data.format);
        const out = format.create(n.base ? fixture(n.base) : null, ctx);
        if (n.expectText) expect(decoder.decode(out)).toContain(n.expectText);
        const store = format.parse(out, ctx);
        expect(store.units).toHaveLength(n.count);
        for (const u of store.units) {
          if (u.state !== State.READONLY) expect(u.state).toBe(State.EMPTY);
        }
      });
    }

    for (const b of data.bad ?? []) {
      it(`refuses ${b.name} with a FormatParseError`, () => {
        const bytes = typeof b.text === 'string' ? new TextEncoder().encode(b.text) : b.text;
        let error: unknown;
        try {
          format.parse(bytes, { filename: 'bad.file', language: 'de', sourceLanguage: 'en' });
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(FormatParseError);
        const err = error as FormatParseError;
        expect(err.code).toBe('FormatParseError');
        expect(err.data.filename).toBe('bad.file');
        expect(err.data.reason).not.toContain('\n');
        if (b.line !== undefined) expect(err.data.line).toBe(b.line);
      });
    }
  });
}
