// Debian's Apertium APy for tests: started on a loopback ephemeral port over the installed pairs, stopped by close()
// (and by itself when the test process goes away); skipped with a message where apertium-apy is not installed.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

export const APERTIUM_MODES = process.env.APERTIUM_MODES ?? '/usr/share/apertium/modes';
const PYTHON = '/usr/bin/python3';

/** Why Apertium cannot run here, or null when it can. */
export function apertiumMissing(): string | null {
  if (!existsSync('/usr/bin/apertium-apy') || !existsSync(PYTHON))
    return 'apertium-apy is not installed (Debian: apt-get install apertium-apy apertium-eng-spa)';
  if (!existsSync(`${APERTIUM_MODES}/eng-spa.mode`)) return 'the eng-spa pair is not installed (Debian: apt-get install apertium-eng-spa)';
  return null;
}

export interface Apertium {
  url: string;
  close(): Promise<void>;
}

// APy binds every interface on the port it is given; this starter binds loopback on port 0 instead, says the port,
// and ends the server when its parent (the test process) is gone.
const STARTER = `
import os, sys, threading, time
import tornado.tcpserver, tornado.netutil
parent = os.getppid()
def bind(self, port, address=None, *args, **kwargs):
    sockets = tornado.netutil.bind_sockets(0, '127.0.0.1')
    self._pending_sockets.extend(sockets)
    print('listening', sockets[0].getsockname()[1], flush=True)
tornado.tcpserver.TCPServer.bind = bind
def orphaned():
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)
threading.Thread(target=orphaned, daemon=True).start()
sys.argv = ['apertium-apy', '-p', '0', sys.argv[1]]
from apertium_apy.apy import main
main()
`;

/** Starts APy over `modes` and resolves once it listens. */
export async function startApertium(modes = APERTIUM_MODES): Promise<Apertium> {
  const child: ChildProcess = spawn(PYTHON, ['-c', STARTER, modes], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C.UTF-8' } });
  let errors = '';
  child.stderr!.on('data', (d: Buffer) => {
    errors = (errors + d.toString()).slice(-4000);
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`apertium-apy did not start in 30 s:\n${errors}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`apertium-apy exited (${code}):\n${errors}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
