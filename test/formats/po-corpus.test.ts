// gettext PO over the real-world corpus, against Translate Toolkit: every unit's source, target, context, state and id_hash.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fg from 'fast-glob';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ParsedUnit, State, type UnitState } from '../../src/domain/unit.js';
import type { FormatContext } from '../../src/formats/format.js';
import { getFormat } from '../../src/formats/registry.js';
import { corpusDir, describeCorpus } from '../helpers/corpus.js';
import { type ToolkitResult, type ToolkitUnit, describeToolkit, toolkitStores, toolkitUnits } from '../helpers/toolkit.js';

const po = getFormat('po');
const poMono = getFormat('po-mono');

const PROJECTS = [
  { dir: 'MidnightCommander-mc', template: 'po/mc.pot', files: 10 },
  { dir: 'audacity-audacity', template: 'au3/locale/audacity.pot', files: 8 },
];

function hasText(forms: readonly string[]): boolean {
  return forms.some((f) => f !== '');
}

/** Weblate's has_content over a toolkit unit: not the header, not blank, not obsolete. */
function isContent(u: ToolkitUnit): boolean {
  return !u.header && !u.blank && !u.obsolete;
}

/** Weblate's state from the toolkit's unit: needs editing when fuzzy with text, translated with text, else empty. */
function weblateState(u: ToolkitUnit): UnitState {
  if (!hasText(u.target)) return State.EMPTY;
  return u.fuzzy ? State.FUZZY : State.TRANSLATED;
}

/** Weblate's location string from the toolkit's list. */
function weblateLocation(u: ToolkitUnit): string {
  return u.locations
    .join(' ')
    .replace(/:docstring of [a-zA-Z0-9._]+:[0-9]+/g, '')
    .split(/\s+/)
    .filter((t) => t !== '')
    .join(', ');
}

function weblateFlags(u: ToolkitUnit): string {
  return [...new Set((u.flags ?? []).filter((f) => f !== 'fuzzy'))].sort().join(', ');
}

function ours(u: ParsedUnit) {
  return { context: u.context, source: u.source, target: u.target, state: u.state, idHash: u.idHash, note: u.note, location: u.location, flags: u.flags };
}

/** What Weblate shows for a toolkit unit read bilingually (first of each identity only). */
function expectedBilingual(units: readonly ToolkitUnit[]) {
  const seen = new Set<bigint>();
  const out: ReturnType<typeof ours>[] = [];
  for (const u of units) {
    if (!isContent(u) || seen.has(u.weblate.idHash)) continue;
    seen.add(u.weblate.idHash);
    out.push({
      context: u.weblate.context,
      source: u.weblate.source,
      target: u.weblate.target,
      state: weblateState(u),
      idHash: u.weblate.idHash,
      note: u.notes,
      location: weblateLocation(u),
      flags: weblateFlags(u),
    });
  }
  return out;
}

function expectedMonolingual(units: readonly ToolkitUnit[]) {
  return units.filter(isContent).map((t) => {
    const tr = t.translation ?? null;
    const target = tr ? tr.target : [''];
    return {
      context: t.weblate.context,
      source: t.weblate.source,
      target,
      state: tr ? weblateState(tr) : State.EMPTY,
      idHash: t.weblate.idHash,
    };
  });
}

describeCorpus('format po: corpus against Translate Toolkit', (dir) => {
  describeToolkit('format po: Translate Toolkit parity', () => {
    const jobs = PROJECTS.flatMap((p) =>
      fg
        .sync('**/*.{po,pot}', { cwd: path.join(dir, p.dir) })
        .sort()
        .map((file) => ({ project: p, file })),
    );
    let results: Array<ToolkitResult | Error> = [];
    let mono: Array<ToolkitResult | Error> = [];
    beforeAll(async () => {
      // one Python process per reading (bilingual, monolingual): the toolkit takes most of this file's time
      [results, mono] = await Promise.all([
        toolkitStores(jobs.map((j) => ({ file: path.join(dir, j.project.dir, j.file), store: 'po' }))),
        toolkitStores(
          jobs.map((j) => ({ file: path.join(dir, j.project.dir, j.file), store: 'po-mono', template: path.join(dir, j.project.dir, j.project.template) })),
        ),
      ]);
    }, 600_000);

    it('finds every PO file the corpus README lists', () => {
      for (const p of PROJECTS) expect(jobs.filter((j) => j.project === p)).toHaveLength(p.files);
    });

    jobs.forEach((job, i) => {
      const name = `${job.project.dir}/${job.file}`;
      it(`${name}: every unit as Translate Toolkit and Weblate read it (bilingual po)`, () => {
        const tt = results[i]!;
        if (tt instanceof Error) throw tt;
        const bytes = readFileSync(path.join(dir, job.project.dir, job.file));
        const ctx: FormatContext = { filename: job.file, language: 'xx', sourceLanguage: 'en' };
        const store = po.parse(bytes, ctx);
        const expected = expectedBilingual(tt.units);
        expect(store.units).toHaveLength(expected.length);
        const got = store.units.map(ours);
        for (let k = 0; k < expected.length; k++) expect(got[k], `unit ${k + 1}`).toEqual(expected[k]);
        expect(Buffer.from(po.write(bytes, [], ctx)).equals(bytes)).toBe(true);
      });

      it(`${name}: read as po-mono with the POT as template, keyed as Weblate keys it`, () => {
        const tt = mono[i]!;
        if (tt instanceof Error) throw tt;
        const templateFile = job.project.template;
        const tctx: FormatContext = { filename: templateFile, language: 'en', sourceLanguage: 'en' };
        const template = poMono.parse(readFileSync(path.join(dir, job.project.dir, templateFile)), tctx);
        const store = poMono.parse(readFileSync(path.join(dir, job.project.dir, job.file)), {
          filename: job.file,
          language: 'xx',
          sourceLanguage: 'en',
          template,
        });
        const expected = expectedMonolingual(tt.units);
        expect(store.units.map((u) => ({ context: u.context, source: u.source, target: u.target, state: u.state, idHash: u.idHash }))).toEqual(expected);
      });
    });
  });
});

/** What Weblate (over the newest Translate Toolkit) reads differently from Debian's translate-toolkit, one case each. */
describeToolkit('format po: where Weblate differs from Debian Translate Toolkit', () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'tms-po-diff-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const write = (name: string, text: string) => {
    const file = path.join(tmp, name);
    writeFileSync(file, text);
    return file;
  };
  const parse = (file: string) => po.parse(readFileSync(file), { filename: path.basename(file), language: 'cs', sourceLanguage: 'en' });

  it('an unknown escape loses its backslash (newer toolkits, which Weblate uses); Debian 3.8 keeps it', async () => {
    const file = write('escape.po', 'msgid "a\\qb"\nmsgstr "c\\qd"\n');
    const { units } = await toolkitUnits(file, 'po');
    expect(units[0]!.source).toEqual(['a\\qb']);
    expect(parse(file).units[0]).toMatchObject({ source: ['aqb'], target: ['cqd'] });
  });

  it('a plural with only a later form filled is translated (any form counts); Debian 3.8 looks at the first form only', async () => {
    const file = write('partial.po', 'msgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] ""\nmsgstr[1] "%d soubory"\nmsgstr[2] ""\n');
    const { units } = await toolkitUnits(file, 'po');
    expect(units[0]!.translated).toBe(false);
    expect(parse(file).units[0]!.state).toBe(State.TRANSLATED);
  });

  it('a duplicate msgctxt + msgid is one unit (the first), the other skipped with its line; the toolkit lists both', async () => {
    const file = write('duplicate.po', 'msgid "Open"\nmsgstr "Otevřít"\n\nmsgid "Open"\nmsgstr "Otevři"\n');
    const { units } = await toolkitUnits(file, 'po');
    expect(units).toHaveLength(2);
    const store = parse(file);
    expect(store.units.map((u) => u.target)).toEqual([['Otevřít']]);
    expect(store.skipped).toEqual([{ line: 4, reason: expect.stringContaining('line 1') }]);
  });

  it('the previous source of a fuzzy plural without #| lines is empty (newer toolkits); Debian 3.8 gives empty plural forms', async () => {
    const file = write('previous.po', '#, fuzzy\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] "x"\nmsgstr[1] "y"\n');
    const { units } = await toolkitUnits(file, 'po');
    expect(units[0]!.previousSource).toEqual(['', '']);
    expect(parse(file).units[0]!.previousSource).toBe('');
  });
});

if (!corpusDir()) console.warn('[skip] format po corpus parity: ../shared/corpus is absent');
