// `npm start` as a user runs it (npm, its shell, the demo, its serving workers): every demo step runs and prints once,
// and a signal to npm's process, or Ctrl+C, stops the server and every process it started.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/corpus.js';
import { httpRequest } from '../helpers/http.js';
import { waitFor } from '../helpers/wait.js';

const state = mkdtempSync(path.join(tmpdir(), 'tms-demo-test-'));
const groups: number[] = [];

afterAll(() => {
  // whatever a failed run left behind: each run is a process group of its own, started here
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {}
  }
  rmSync(state, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

interface Demo {
  npm: ChildProcess;
  port: number;
  output: () => string;
  /** The leader and its serving workers. */
  pids: number[];
}

/** `PORT=… TMS_DEMO_DIR=… npm start -- --workers 2`, in a process group of its own (as a terminal's job is). */
async function startDemo(): Promise<Demo> {
  const port = await freePort();
  const npm = spawn('npm', ['start', '--', '--workers', '2'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), TMS_DEMO_DIR: state },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  groups.push(npm.pid!);
  let text = '';
  npm.stdout!.on('data', (d) => (text += d));
  npm.stderr!.on('data', (d) => (text += d));
  const leader = await waitFor(
    'the demo to serve',
    () => {
      if (npm.exitCode !== null) throw new Error(`npm start exited with ${npm.exitCode}:\n${text}`);
      return /^tms: 2 serving workers; process (\d+) leads/m.exec(text)?.[1];
    },
    120_000,
  );
  const health = await httpRequest(`http://127.0.0.1:${port}`, '/healthz');
  expect(health.status).toBe(200);
  const workers = (health.json as { workers: { pids: number[] } }).workers.pids;
  expect(workers).toHaveLength(2);
  return { npm, port, output: () => text, pids: [Number(leader), ...workers] };
}

const count = (text: string, line: RegExp) => text.match(new RegExp(line.source, 'gm'))?.length ?? 0;

/** After the signal: npm ends, then nothing listens on the port and none of the demo's processes is left. */
async function expectAllStopped(demo: Demo): Promise<void> {
  await waitFor('npm to exit', () => demo.npm.exitCode !== null || demo.npm.signalCode !== null, 20_000);
  await waitFor('the port to close', async () => !(await listening(demo.port)), 20_000);
  await waitFor('every demo process to exit', () => demo.pids.every((pid) => !alive(pid)), 20_000);
  expect(demo.output()).toMatch(/^tms: stopped \((SIGTERM|SIGINT)\)$/m);
}

describe('npm start', () => {
  it('runs each demo step once (not once more in each serving worker) and stops with SIGTERM to npm', async () => {
    const demo = await startDemo();
    const out = demo.output();
    expect(count(out, /^demo: created upstream repository /)).toBe(3);
    expect(count(out, /^demo: tms check /)).toBe(1);
    expect(count(out, /^demo: tms sync /)).toBe(1);
    expect(count(out, /^hello\/app: syncing$/)).toBe(1);
    expect(count(out, /^demo: open http/)).toBe(1);
    expect(count(out, /^demo: tms serve /)).toBe(1);
    expect(out).toContain(`demo: open http://127.0.0.1:${demo.port}/ in a browser`);
    expect(out).toContain(`export TMS_CONFIG=${path.join(state, 'tms.config.json')}`);
    process.kill(demo.npm.pid!, 'SIGTERM');
    await expectAllStopped(demo);
  }, 180_000);

  it('stops with SIGINT to npm (a second start reuses its state)', async () => {
    const demo = await startDemo();
    const out = demo.output();
    expect(count(out, /^demo: created upstream repository /)).toBe(0);
    expect(count(out, /^demo: tms sync /)).toBe(1);
    expect(count(out, /^hello\/app: syncing$/)).toBe(1);
    process.kill(demo.npm.pid!, 'SIGINT');
    await expectAllStopped(demo);
  }, 180_000);

  it('stops with Ctrl+C (SIGINT to the whole process group, as a terminal sends it)', async () => {
    const demo = await startDemo();
    process.kill(-demo.npm.pid!, 'SIGINT');
    await expectAllStopped(demo);
    expect(demo.output()).toMatch(/^tms: stopped \(SIGINT\)$/m);
  }, 180_000);
});
