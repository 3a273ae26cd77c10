// remote_timeout_s: how long a git remote may stay silent before a fetch, push or clone gives up.
import { describe, expect, it } from 'vitest';
import { parseConfig } from './config.js';

describe('remote_timeout_s', () => {
  const file = '/srv/tms/tms.config.json';

  it('defaults to 600 s (git waits as long as the connection lives) and takes fractions', () => {
    expect(parseConfig('{}', file, {}).remote_timeout_s).toBe(600);
    expect(parseConfig('{"remote_timeout_s": 2.5}', file, {}).remote_timeout_s).toBe(2.5);
  });

  it('refuses zero, a negative number, more than a day and a string, with its JSON path', () => {
    for (const value of ['0', '-1', '86401', '"10"']) {
      expect(() => parseConfig(`{"remote_timeout_s": ${value}}`, file, {})).toThrow(expect.objectContaining({ code: 'ConfigError' }));
      expect(() => parseConfig(`{"remote_timeout_s": ${value}}`, file, {})).toThrow(/remote_timeout_s/);
    }
  });
});
