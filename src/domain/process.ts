// Whether another process still runs: for marks and files a killed process may have left behind.

/** Whether a process with this id is alive (EPERM: alive, owned by someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
