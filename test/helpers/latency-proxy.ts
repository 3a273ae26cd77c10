// A TCP proxy in front of a PostgreSQL server that delays every chunk by a fixed time each way (a database on another
// host), for bench:postgres and the tests of a stalled database. The benchmark runs it as a process of its own
// (`tsx test/helpers/latency-proxy.ts <unix socket> <delay ms>` prints `listening <port>`), so that the load
// generator's event loop never delays it. Sub-millisecond delays:
// node's timers have whole milliseconds, so a second thread sleeps on a futex (Atomics.wait takes fractions) until
// the next chunk is due and wakes the main thread, which sends every chunk due by then. Sending "stop" on standard
// input makes it stop forwarding (a stalled database: connections stay open, nothing goes through); "go" resumes.
import net from 'node:net';
import { Worker } from 'node:worker_threads';

/**
 * How much later than asked the main thread hears of a due time (the futex's wake-up and the message between threads,
 * measured: about 0.15 ms each way): the thread is woken that much earlier, so a chunk leaves close to its time.
 */
const WAKE_NS = 150_000n;

interface Pending {
  due: bigint;
  to: net.Socket;
  bytes: Buffer;
}

/** The futex thread: sleeps until the due time (ms since `start`, a float64) or a new one, then posts a tick. */
const TIMER = `
const { parentPort, workerData } = require('node:worker_threads');
const flag = new Int32Array(workerData.shared, 0, 1);
const due = new Float64Array(workerData.shared, 8, 1);
const start = BigInt(workerData.start);
const nowMs = () => Number(process.hrtime.bigint() - start) / 1e6;
for (;;) {
  const generation = Atomics.load(flag, 0);
  const at = due[0];
  if (at === 0) { Atomics.wait(flag, 0, generation); continue; }
  const wait = at - nowMs();
  if (wait > 0) { Atomics.wait(flag, 0, generation, wait); continue; }
  due[0] = 0;
  parentPort.postMessage(0);
}`;

/** Starts the proxy on 127.0.0.1 (an ephemeral port) in front of `target` (a unix socket path); returns its port. */
export async function startLatencyProxy(target: string, delayMs: number): Promise<{ port: number; stall(on: boolean): void; close(): Promise<void> }> {
  const delay = BigInt(Math.round(delayMs * 1e6));
  const queue: Pending[] = [];
  const shared = new SharedArrayBuffer(16);
  const flag = new Int32Array(shared, 0, 1);
  const due = new Float64Array(shared, 8, 1);
  const start = process.hrtime.bigint();
  let worker: Worker | undefined;
  let stalled = false;
  const sockets = new Set<net.Socket>();

  const arm = () => {
    if (queue.length === 0 || !worker) return;
    due[0] = Number(queue[0]!.due - WAKE_NS - start) / 1e6;
    Atomics.add(flag, 0, 1);
    Atomics.notify(flag, 0);
  };
  const flush = () => {
    if (stalled) return;
    const now = process.hrtime.bigint() + WAKE_NS;
    while (queue.length > 0 && queue[0]!.due <= now) {
      const p = queue.shift()!;
      if (!p.to.destroyed) p.to.write(p.bytes);
    }
    arm();
  };
  if (delay > 0n) {
    // both threads count from the same instant of the one monotonic clock
    worker = new Worker(TIMER, { eval: true, workerData: { shared, start: String(start) } });
    worker.on('message', flush);
    worker.unref();
  }
  const forward = (from: net.Socket, to: net.Socket) => {
    from.on('data', (bytes: Buffer) => {
      if (!worker) {
        if (!stalled) to.write(bytes);
        else queue.push({ due: 0n, to, bytes });
        return;
      }
      const wasEmpty = queue.length === 0;
      queue.push({ due: process.hrtime.bigint() + delay, to, bytes });
      if (wasEmpty) arm();
    });
    from.on('close', () => to.destroy());
    from.on('error', () => to.destroy());
  };
  const server = net.createServer((client) => {
    client.setNoDelay(true);
    const upstream = net.connect(target);
    sockets.add(client);
    sockets.add(upstream);
    client.on('close', () => sockets.delete(client));
    upstream.on('close', () => sockets.delete(upstream));
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    stall(on) {
      stalled = on;
      if (!on) {
        if (worker) flush();
        else for (const p of queue.splice(0)) if (!p.to.destroyed) p.to.write(p.bytes);
      }
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await worker?.terminate();
    },
  };
}

// as a process: `tsx test/helpers/latency-proxy.ts <unix socket> <delay ms>`
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const [target, delay] = process.argv.slice(2);
  const proxy = await startLatencyProxy(target!, Number(delay ?? '0'));
  process.stdout.write(`listening ${proxy.port}\n`);
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (line: string) => {
    if (line.includes('stop')) proxy.stall(true);
    if (line.includes('go')) proxy.stall(false);
  });
  process.stdin.on('end', () => void proxy.close().then(() => process.exit(0)));
}
