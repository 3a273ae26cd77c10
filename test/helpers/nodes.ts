// Several `bin/tms serve` nodes of one configuration (each with its own working copies) and plain HTTP requests to them.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { repoRoot } from './corpus.js';
import { waitFor } from './wait.js';

const run = promisify(execFile);
export const TMS = path.join(repoRoot, 'bin', 'tms');

export interface Reply {
  status: number;
  type: string;
  body: string;
  cookies: string[];
}

export interface Node {
  name: string;
  base: string;
  proc: ChildProcess;
  stderr: string;
}

/** tms processes of one configuration file, each name with its own working copies (`<root>/repos-<name>`). */
export interface Nodes {
  /** The environment of the tms process `name`: its working copies, no test schema mapping (the configuration names the database). */
  env(name: string): NodeJS.ProcessEnv;
  /** Runs `bin/tms --config … <args>` as `name` (default `cli`); its standard output. */
  tms(args: string[], name?: string): Promise<string>;
  /** Starts `bin/tms serve` as node `name` (its own working copies and port). */
  start(name: string): Promise<Node>;
}

/**
 * Nodes of the configuration `configFile`, their working copies under `root`.
 * @example const nodes = tmsNodes(root, configFile); const a = await nodes.start('a');
 */
export function tmsNodes(root: string, configFile: string): Nodes {
  const nodes: Nodes = {
    env(name) {
      const env: NodeJS.ProcessEnv = { ...process.env, TMS_REPOS_DIR: path.join(root, `repos-${name}`) };
      delete env.TMS_TEST_POSTGRES;
      return env;
    },
    async tms(args, name = 'cli') {
      const { stdout } = await run(process.execPath, [TMS, '--config', configFile, ...args], { env: nodes.env(name), timeout: 60_000 });
      return stdout;
    },
    async start(name) {
      const proc = spawn(process.execPath, [TMS, '--config', configFile, 'serve', '--port', '0', '--workers', '1'], {
        env: nodes.env(name),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const node: Node = { name, base: '', proc, stderr: '' };
      proc.stderr!.on('data', (d) => (node.stderr += d));
      let stdout = '';
      node.base = await new Promise<string>((resolve, reject) => {
        proc.stdout!.on('data', (d) => {
          stdout += d;
          const m = /serving the API on (\S+)\/api\/ /.exec(stdout);
          if (m) resolve(m[1]!);
        });
        proc.once('exit', (code) => reject(new Error(`node ${name} exited with ${code}: ${node.stderr}`)));
      });
      return node;
    },
  };
  return nodes;
}

export async function stopNode(node: Node | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!node || node.proc.exitCode !== null || node.proc.signalCode !== null) return;
  const exit = new Promise((resolve) => node.proc.once('exit', resolve));
  node.proc.kill(signal);
  await exit;
}

/** One request on a connection of its own (a node's answer as any client sees it). */
export function request(node: Node, method: string, url: string, body?: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${node.base}${url}`, { method, agent: false, headers: { connection: 'close', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body: text, cookies: res.headers['set-cookie'] ?? [] }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A GET answered 200, its JSON. */
export async function json<T>(node: Node, url: string, headers?: Record<string, string>): Promise<T> {
  const r = await request(node, 'GET', url, undefined, headers);
  expect(r.status, `${node.name} ${url}: ${r.body}`).toBe(200);
  return JSON.parse(r.body) as T;
}

/** Until the node's update queue (webhooks) has nothing running or queued. */
export async function idle(node: Node): Promise<void> {
  await waitFor(`${node.name}'s idle update queue`, async () => {
    const { queue } = await json<{ queue: { running: number; queued: number } }>(node, '/healthz');
    return queue.running === 0 && queue.queued === 0;
  });
}
