// remote_timeout_s: how long a git remote may stay silent before a fetch, push or clone gives up.
import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../test/helpers/errors.js';
import { ConfigError } from '../domain/errors.js';
import { parseConfig } from './config.js';

describe('remote_timeout_s', () => {
  const file = '/srv/tms/tms.config.json';

  it('defaults to 600 s (git waits as long as the connection lives) and takes fractions', () => {
    expect(parseConfig('{}', file, {}).remote_timeout_s).toBe(600);
    expect(parseConfig('{"remote_timeout_s": 2.5}', file, {}).remote_timeout_s).toBe(2.5);
  });

  it('refuses zero, a negative number, more than a day and a string, with its JSON path', () => {
    for (const value of ['0', '-1', '86401', '"10"']) {
      const err = thrownBy(ConfigError, () => parseConfig(`{"remote_timeout_s": ${value}}`, file, {}));
      expect(err.data.problems).toEqual([expect.stringMatching(/^remote_timeout_s: /)]);
    }
  });
});
