// What every reliability campaign shares: bounded settings from the environment, violations, the summary line, raw HTTP.
import { readFileSync } from 'node:fs';
import net from 'node:net';

/** A positive number from the environment, else `fallback` (campaigns are short by default: CI runs them). */
export function envNumber(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** A campaign's bookkeeping: what was tried, what held, what did not. */
export class Campaign {
  readonly started = performance.now();
  readonly counts = new Map<string, number>();
  readonly violations: string[] = [];

  constructor(readonly name: string) {}

  count(what: string, n = 1): void {
    this.counts.set(what, (this.counts.get(what) ?? 0) + n);
  }

  /** Records a violation (the first 50 are kept verbatim). */
  violate(message: string): void {
    this.count('violations');
    if (this.violations.length < 50) this.violations.push(message);
    process.stderr.write(`campaign:${this.name}: VIOLATION ${message}\n`);
  }

  note(line: string): void {
    process.stderr.write(`campaign:${this.name}: ${line}\n`);
  }

  /** Prints the one summary line (`campaign:<name> ok …` or `FAILED`) and returns the exit code. */
  finish(extra: Record<string, string | number> = {}): number {
    const ok = this.violations.length === 0;
    const fields = { ...Object.fromEntries(this.counts), ...extra, seconds: ((performance.now() - this.started) / 1000).toFixed(1) };
    const text = Object.entries(fields)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    process.stdout.write(`campaign:${this.name} ${ok ? 'ok' : 'FAILED'} ${text}\n`);
    if (!ok) for (const v of this.violations) process.stdout.write(`  - ${v}\n`);
    return ok ? 0 : 1;
  }
}

/** A raw HTTP answer: the status line's code, lower-cased headers, the body bytes. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Sends exactly these bytes to 127.0.0.1:port on a fresh connection and reads until the server closes it (send
 * `Connection: close`). Null when the server closed without answering.
 */
export function rawRequest(port: number, bytes: Buffer, timeoutMs = 30_000): Promise<RawAnswer | null> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parseAnswer(Buffer.concat(chunks)));
    });
    socket.write(bytes, () => socket.end());
  });
}

function parseAnswer(all: Buffer): RawAnswer | null {
  const end = all.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const head = all.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? '')?.[1]);
  if (!Number.isInteger(status)) return null;
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = all.subarray(end + 4);
  if (headers['transfer-encoding'] === 'chunked') body = unchunk(body);
  return { status, headers, body };
}

function unchunk(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = Number.parseInt(data.subarray(at, eol).toString('latin1'), 16);
    if (!size) break;
    out.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}

/** Resident memory of a process in bytes (Linux /proc), or null. */
export function rssOf(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Percentile (0–100) of a list of numbers. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export const MIB = 1024 * 1024;
