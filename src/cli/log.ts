// `tms serve`'s log: JSON lines with a level, filtered by the configuration's `log_level`.
import type { LogLevel } from '../config/config.js';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  /** Writes one JSON line `{"time", "level", "event", …fields}` when `level` is at or above the configured one. */
  log(level: Exclude<LogLevel, 'silent'>, event: string, fields?: Record<string, unknown>): void;
  enabled(level: Exclude<LogLevel, 'silent'>): boolean;
}

/**
 * A logger writing through `write` (one line, no newline).
 * @example createLogger('info', console.log).log('info', 'request', { method: 'GET', path: '/api/', status: 200 })
 */
export function createLogger(level: LogLevel, write: (line: string) => void, now: () => Date = () => new Date()): Logger {
  const threshold = RANK[level];
  const enabled = (l: Exclude<LogLevel, 'silent'>) => RANK[l] >= threshold;
  return {
    enabled,
    log(l, event, fields) {
      if (!enabled(l)) return;
      write(JSON.stringify({ time: now().toISOString(), level: l, event, ...fields }));
    },
  };
}
