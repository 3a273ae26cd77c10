// What the end-to-end benchmarks share: the KeePassXC corpus (or a visible exit without it), its project
// configuration, the address a `tms serve` child process prints, and a forge's signed push hook.
import type { ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The real-world corpus (TMS_CORPUS, else ../shared/corpus); exits with a message when it is not there. */
export function corpusDir(bench: string): string {
  const corpus = process.env.TMS_CORPUS ?? path.resolve(root, '..', 'shared', 'corpus');
  if (!existsSync(corpus)) {
    console.log(`${bench}: the corpus is not at ${corpus}; set TMS_CORPUS. Nothing measured.`);
    process.exit(0);
  }
  return corpus;
}

/** The folder of KeePassXC's translation files; exits with a message when the corpus is not there. */
export function keepassxcSource(bench: string): string {
  const corpus = process.env.TMS_CORPUS ?? path.resolve(root, '..', 'shared', 'corpus');
  const source = path.join(corpus, 'keepassxreboot-keepassxc', 'share', 'translations');
  if (!existsSync(source)) {
    console.log(`${bench}: the KeePassXC corpus is not at ${source}; set TMS_CORPUS. Nothing measured.`);
    process.exit(0);
  }
  return source;
}

/** The KeePassXC translation files by repository path (`share/translations/…`). */
export function keepassxcFiles(bench: string): Record<string, Buffer> {
  const source = keepassxcSource(bench);
  const names = readdirSync(source).filter((n) => /^keepassxc_.*\.ts$/.test(n));
  return Object.fromEntries(names.map((n) => [`share/translations/${n}`, readFileSync(path.join(source, n))]));
}

/** A configuration's projects: KeePassXC as one Qt TS component from `repo`. */
export function keepassxcProjects(repo: string): unknown[] {
  const component = {
    name: 'KeePassXC',
    slug: 'keepassxc',
    repo,
    branch: 'main',
    filemask: 'share/translations/keepassxc_*.ts',
    file_format: 'ts',
    source_language: 'en',
  };
  return [{ name: 'KeePassXC', slug: 'keepassxc', components: [component] }];
}

/** `http://host:port` of a `tms serve` child once it prints its address; rejects when it exits first. */
export function serveUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const look = (d: Buffer) => {
      seen += d.toString();
      const m = /serving the API on (http:\/\/[^/]+)\/api\//.exec(seen);
      if (!m) return;
      resolve(m[1]!);
      // the request log keeps coming: drained, not kept and scanned (that cost the load generator's process CPU)
      child.stdout!.off('data', look);
      child.stderr!.off('data', look);
      child.stdout!.resume();
      child.stderr!.resume();
      seen = '';
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.once('exit', (code) => reject(new Error(`tms serve exited with ${code}: ${seen}`)));
  });
}

/** What autocannon reports of a load (the fields the benchmarks read). */
export interface LoadResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  errors: number;
  non2xx: number;
  timeouts: number;
  /** Answers by status code. */
  statusCodeStats: Record<string, { count: number }>;
}

/** autocannon as the benchmarks call it: a load by duration or by amount, paths set per request. */
export type Autocannon = (options: {
  url: string;
  connections: number;
  duration?: number;
  amount?: number;
  requests?: { setupRequest?: (request: { path: string }) => { path: string } }[];
}) => Promise<LoadResult> & { on(event: 'response', listener: () => void): void };

/** The load generator (CommonJS, typed here). */
export const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

let deliveries = 0;

/**
 * A push to `repoUrl`'s `main` as GitHub reports it: a signed push hook (`secret`, the configuration's `hooks.secret`)
 * posted to `${base}/hooks/github/`. Its answer's status, and the milliseconds until it came.
 * @example await sendGithubPush('http://127.0.0.1:8000', 's3cret', gitServer.url('keepassxc'))
 */
export async function sendGithubPush(base: string, secret: string, repoUrl: string): Promise<{ ms: number; status: number; text: string }> {
  const name = repoUrl.split('/').at(-1)!;
  const body = JSON.stringify({
    ref: 'refs/heads/main',
    repository: { name, full_name: `bench/${name}`, owner: { login: 'bench' }, clone_url: `${repoUrl}.git`, html_url: repoUrl, url: repoUrl },
  });
  const started = performance.now();
  const res = await fetch(`${base}/hooks/github/`, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-github-delivery': `bench-${process.pid}-${++deliveries}`,
      'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
    },
  });
  const text = await res.text();
  return { ms: performance.now() - started, status: res.status, text };
}
