// Turns on one connection: any number of readers at once, or one writer alone (its transaction open across awaits);
// a writer that waits goes before the readers that come after it.

interface Waiting {
  write: boolean;
  go: () => void;
}

/**
 * Who may use a connection now. A transaction's function awaits its statements, so without turns another caller's
 * statements could run inside it (and see what it has not committed); with them, reads run between writes only.
 * @example const turns = new Turns(); await turns.write(async () => { … BEGIN … COMMIT … })
 */
export class Turns {
  private readers = 0;
  private writing = false;
  private readonly queue: Waiting[] = [];

  /** Runs `fn` beside other readers, once no writer holds or waits for the connection. */
  async read<T>(fn: () => Promise<T>): Promise<T> {
    if (this.writing || this.queue.length > 0) await new Promise<void>((go) => this.queue.push({ write: false, go }));
    else this.readers++;
    try {
      return await fn();
    } finally {
      this.readers--;
      this.next();
    }
  }

  /** Runs `fn` alone: after the readers and writers before it, with none beside it. */
  async write<T>(fn: () => Promise<T>): Promise<T> {
    if (this.writing || this.readers > 0 || this.queue.length > 0) await new Promise<void>((go) => this.queue.push({ write: true, go }));
    else this.writing = true;
    try {
      return await fn();
    } finally {
      this.writing = false;
      this.next();
    }
  }

  /** Whether a writer holds the connection now. */
  get writer(): boolean {
    return this.writing;
  }

  /** Hands the connection on: to the next writer once no reader is left, or to every reader up to the next writer. */
  private next(): void {
    if (this.writing) return;
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      if (head.write) {
        if (this.readers > 0) return;
        this.queue.shift();
        this.writing = true;
        head.go();
        return;
      }
      this.queue.shift();
      this.readers++;
      head.go();
    }
  }
}
