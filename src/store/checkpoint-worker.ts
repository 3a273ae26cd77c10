// The checkpoint thread: copies the write-ahead log into the database file on a connection of its own, so no
// request pays for a checkpoint (SQLite otherwise runs one inside whichever write crosses the threshold).
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { addonOptions } from './db.js';

const { file, intervalMs } = (workerData as { data: { file: string; intervalMs: number } }).data;
const db = new Database(file, addonOptions());
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try {
    // PASSIVE: copies what it can without waiting for readers or writers
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // busy or closing: the next turn tries again (the serving connection's own threshold is the safety net)
  }
}, intervalMs);
parentPort!.on('message', (message: string) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort!.close();
});
