import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../test/helpers/errors.js';
import { ConfigError } from '../domain/errors.js';
import { parseConfig } from './config.js';

describe('lock_timeout_ms', () => {
  const file = '/srv/tms/tms.config.json';

  it('defaults to a minute and is read once, with the configuration', () => {
    expect(parseConfig('{}', file, {}).lock_timeout_ms).toBe(60_000);
    expect(parseConfig('{"lock_timeout_ms": 1500}', file, {}).lock_timeout_ms).toBe(1500);
  });

  it('is overridden by TMS_LOCK_TIMEOUT_MS when that is a positive number', () => {
    expect(parseConfig('{"lock_timeout_ms": 1500}', file, { TMS_LOCK_TIMEOUT_MS: '250' }).lock_timeout_ms).toBe(250);
    expect(parseConfig('{"lock_timeout_ms": 1500}', file, { TMS_LOCK_TIMEOUT_MS: 'soon' }).lock_timeout_ms).toBe(1500);
  });

  it('refuses a value that is not a positive whole number, with its JSON path', () => {
    expect(thrownBy(ConfigError, () => parseConfig('{"lock_timeout_ms": 0}', file, {})).data.problems).toEqual([expect.stringMatching(/lock_timeout_ms/)]);
  });
});
