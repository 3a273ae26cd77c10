// Python's whitespace as the readers see it: the code-unit test against the regex class it stands for.
import { describe, expect, it } from 'vitest';
import { PY_SPACE, isPySpace, pyLstrip, pyRstrip } from './python-text.js';

describe('isPySpace', () => {
  it('agrees with the PY_SPACE class on every UTF-16 code unit', () => {
    const space = new RegExp(`^[${PY_SPACE}]$`);
    const differing: string[] = [];
    for (let c = 0; c <= 0xffff; c++) if (isPySpace(c) !== space.test(String.fromCharCode(c))) differing.push(c.toString(16));
    expect(differing).toEqual([]);
  });

  it('strips as Python does', () => {
    expect(pyLstrip('\u00a0\u3000 a ')).toBe('a ');
    expect(pyRstrip(' a\u2029\u0085')).toBe(' a');
  });
});
