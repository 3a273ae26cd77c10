// Qt TS format over the real-world corpus: unit counts from the corpus README, byte-identical round trips, one-edit writes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { expect, it } from 'vitest';
import { type ParsedUnit, State } from '../../src/domain/unit.js';
import type { FormatContext } from '../../src/formats/format.js';
import { getFormat } from '../../src/formats/registry.js';
import { describeCorpus } from '../helpers/corpus.js';
import { changedLines } from './conformance.js';

const ts = getFormat('ts');
const decoder = new TextDecoder();

/** Corpus projects in TS format: folder and the heading of their README section. */
const PROJECTS = [
  { dir: 'keepassxreboot-keepassxc', heading: 'keepassxreboot/keepassxc', files: 33 },
  { dir: 'qbittorrent-qBittorrent', heading: 'qbittorrent/qBittorrent', files: 12 },
  { dir: 'flameshot-org-flameshot', heading: 'flameshot-org/flameshot', files: 8 },
];

interface ReadmeRow {
  messages: number;
  numerus: number;
  translated: number;
}

/** The per-file table of one project section: `| \`path\` | size | language | messages | numerus | translated |`. */
function readmeRows(readme: string, heading: string): Map<string, ReadmeRow> {
  const start = readme.search(new RegExp(`^## \\d+\\. ${heading.replace('/', '\\/')}`, 'm'));
  const rest = readme.slice(start + 3);
  const next = rest.search(/^## /m);
  const section = next < 0 ? rest : rest.slice(0, next);
  const rows = new Map<string, ReadmeRow>();
  for (const m of section.matchAll(/^\| `([^`]+\.ts)` \|[^|]*\|[^|]*\| (\d+) \| (\d+) \| (\d+) \|$/gm)) {
    rows.set(m[1]!, { messages: Number(m[2]), numerus: Number(m[3]), translated: Number(m[4]) });
  }
  return rows;
}

/** Messages that Weblate does not list: `vanished` and `obsolete` translations (counted without the parser). */
function obsoleteMessages(text: string): number {
  return text.match(/<translation\b[^>]*\btype=["'](?:vanished|obsolete)["']/g)?.length ?? 0;
}

function comparable(u: ParsedUnit) {
  return [u.context, u.source, u.target, u.state, u.location, u.note, u.idHash];
}

describeCorpus('format ts: corpus', (dir) => {
  const readme = readFileSync(path.join(dir, 'README.md'), 'utf8');

  for (const project of PROJECTS) {
    const rows = readmeRows(readme, project.heading);
    const files = fg.sync('**/*.ts', { cwd: path.join(dir, project.dir) }).sort();

    it(`${project.dir}: the README lists every TS file`, () => {
      expect(files).toHaveLength(project.files);
      expect([...rows.keys()].sort()).toEqual(files);
    });

    for (const file of files) {
      const bytes = readFileSync(path.join(dir, project.dir, file));
      const ctx: FormatContext = { filename: file, language: 'xx', sourceLanguage: 'en' };

      it(`${project.dir}/${file}: units as the README counts them, and a byte-identical round trip`, () => {
        const row = rows.get(file)!;
        const text = decoder.decode(bytes);
        expect((text.match(/<message[\s>]/g) ?? []).length).toBe(row.messages);
        const store = ts.parse(bytes, ctx);
        expect(store.units).toHaveLength(row.messages - obsoleteMessages(text));
        // The README counts finished translations with visible text (keepassxc_ko.ts has one that is a single space).
        const visible = store.units.filter((u) => u.state === State.TRANSLATED && u.target.join('').trim() !== '');
        expect(visible).toHaveLength(row.translated);
        const plural = store.units.filter((u) => u.source.length > 1).length;
        if (obsoleteMessages(text) === 0) expect(plural).toBe(row.numerus);
        expect(Buffer.from(ts.write(bytes, [], ctx)).equals(bytes)).toBe(true);
      });

      it(`${project.dir}/${file}: one edit changes one translation element`, () => {
        const store = ts.parse(bytes, ctx);
        const index = Math.floor(store.units.length / 2);
        const unit = store.units[index];
        const target = unit!.source.map((_, i) => `edited ${i} "quoted" & <b>bold</b>`);
        const out = ts.write(bytes, [{ context: unit!.context, source: unit!.source, target, state: State.TRANSLATED }], ctx);
        const { removed, added } = changedLines(decoder.decode(bytes), decoder.decode(out));
        expect(removed.length).toBeGreaterThan(0);
        expect(removed.length).toBeLessThanOrEqual(unit!.target.length + 2);
        for (const line of [...removed, ...added]) expect(line).toMatch(/<\/?(translation|numerusform)\b/);
        expect(added.join('\n')).toContain('edited 0 &quot;quoted&quot; &amp; &lt;b&gt;bold&lt;/b&gt;');
        const again = ts.parse(out, ctx);
        expect(again.units[index]).toMatchObject({ idHash: unit!.idHash, target, state: State.TRANSLATED });
        const others = (s: typeof store) => s.units.filter((_, i) => i !== index).map(comparable);
        expect(others(again)).toEqual(others(store));
      });
    }
  }

  it('creates a new keepassxc translation from a translated file: nothing stays translated', () => {
    const base = readFileSync(path.join(dir, 'keepassxreboot-keepassxc/share/translations/keepassxc_de.ts'));
    const ctx: FormatContext = { filename: 'keepassxc_eo.ts', language: 'eo', sourceLanguage: 'en', plurals: 2 };
    const out = ts.create(base, ctx);
    const store = ts.parse(out, ctx);
    expect(store.units).toHaveLength(ts.parse(base, ctx).units.length);
    expect(store.units.every((u) => u.state === State.EMPTY)).toBe(true);
    expect(decoder.decode(out.subarray(0, 120))).toContain('<TS version="2.1" language="eo">');
  });
});
