// A template's key places: the lookahead finds the same place as the map for files in any order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TemplateKeys } from './template-keys.js';

describe('TemplateKeys.placeOf', () => {
  it('gives every key of a file the place the map gives, in the template order, shuffled, with keys missing, repeated or unknown', () => {
    const keys = Array.from({ length: 40 }, (_, k) => `key.${k}`);
    const template = new TemplateKeys(keys);
    const places = new Map(keys.map((key, k) => [key, k]));
    const fileKey = fc.oneof(fc.constantFrom(...keys), fc.constantFrom('other', 'key.40', ''));
    fc.assert(
      fc.property(fc.oneof(fc.array(fileKey, { maxLength: 60 }), fc.subarray(keys)), (file) => {
        // each file twice: the second time in the order the first one taught
        for (let round = 0; round < 2; round++) {
          let previous = -1;
          for (const key of file) {
            // the file's own string, not the template's, as a reader has it
            const k = template.placeOf(` ${key}`.slice(1), previous);
            expect(k).toBe(places.get(key));
            if (k !== undefined) previous = k;
          }
        }
      }),
      { numRuns: 2000 },
    );
  });
});
