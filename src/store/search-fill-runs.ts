// The search index's fill in the background, either engine: one run at a time per store, chunk by chunk, stopped by close.
import { setImmediate } from 'node:timers/promises';
import type { Tx } from './db.js';

/** What a store gives its fill: its transactions and the engine's own steps. */
export interface SearchFillSteps {
  read<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Whether anything is left to fill. */
  pending(tx: Tx): Promise<boolean>;
  /** One chunk in a writing transaction; false when nothing was left. */
  chunk(tx: Tx): Promise<boolean>;
  /** After the last chunk (not after a stop): what the engine does once the index is whole. */
  finished?(): Promise<void>;
}

/**
 * The fills of one store: a chunk a writing transaction, the event loop free between chunks (other reads and writes
 * take their turns), until nothing is left or the store closes. One at a time: a call during a fill gets one that
 * starts after it, and so sees every load committed before the call.
 * @example const fills = new SearchFillRuns(steps); await fills.start(); await fills.stop()
 */
export class SearchFillRuns {
  /** The last run started or queued, and whether one waits to start. */
  private last: Promise<void> = Promise.resolve();
  private queued = false;
  private stopping = false;

  constructor(private readonly steps: SearchFillSteps) {}

  start(): Promise<void> {
    if (this.queued) return this.last;
    this.queued = true;
    this.last = this.last
      .catch(() => {})
      .then(async () => {
        this.queued = false;
        const s = this.steps;
        if (this.stopping || !(await s.read((tx) => s.pending(tx)))) return;
        while (!this.stopping && (await s.write((tx) => s.chunk(tx)))) await setImmediate();
        if (!this.stopping) await s.finished?.();
      });
    return this.last;
  }

  /** A run stops after its chunk (the next start or sync goes on from there); resolves once it has. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.last.catch(() => {});
  }
}
