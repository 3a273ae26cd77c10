// A monolingual XLIFF edit (Symfony's kimai layout): the edited unit's <target> and, where the translation file's
// <source> differs from the template's, that <source> too (Weblate's set_target); no other line of the file.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { State } from '../../src/domain/unit.js';
import type { FormatContext } from '../../src/formats/format.js';
import { getFormat } from '../../src/formats/registry.js';
import { describeCorpus } from '../helpers/corpus.js';
import { changedLines } from './conformance.js';

describeCorpus('xliff: a monolingual edit where the translation’s source is stale', (corpus) => {
  const xliff = getFormat('xliff');
  const dir = path.join(corpus, 'kimai-kimai', 'translations');
  const templateCtx: FormatContext = { filename: 'translations/messages.en.xlf', language: 'en', sourceLanguage: 'en' };
  const template = xliff.parseTemplate(readFileSync(path.join(dir, 'messages.en.xlf')), templateCtx, false);
  const ctx: FormatContext = { filename: 'translations/messages.de.xlf', language: 'de', sourceLanguage: 'en', template };
  const bytes = new Uint8Array(readFileSync(path.join(dir, 'messages.de.xlf')));

  it('writes the template’s source over the stale one with the new target, and nothing else', () => {
    const unit = xliff.parse(bytes, ctx).units.find((u) => u.context === 'both')!;
    // the template says "Both"; the German file still has <source>both</source>
    expect(unit.source).toEqual(['Both']);
    const out = xliff.write(bytes, [{ context: unit.context, source: unit.source, target: ['Beide'], state: State.TRANSLATED }], ctx);
    const { removed, added } = changedLines(new TextDecoder().decode(bytes), new TextDecoder().decode(out));
    expect(removed.map((l) => l.trim())).toEqual(['<source>both</source>', '<target>Beides</target>']);
    expect(added.map((l) => l.trim())).toEqual(['<source>Both</source>', '<target state="translated">Beide</target>']);
  });

  it('leaves a <source> that already equals the template’s as it is', () => {
    const units = xliff.parse(bytes, ctx).units;
    const unit = units.find((u) => u.context === 'automatic')!;
    const out = xliff.write(bytes, [{ context: unit.context, source: unit.source, target: ['Automatisch!'], state: State.TRANSLATED }], ctx);
    const { removed, added } = changedLines(new TextDecoder().decode(bytes), new TextDecoder().decode(out));
    expect(removed).toHaveLength(1);
    expect(added.map((l) => l.trim())).toEqual(['<target state="translated">Automatisch!</target>']);
  });
});
