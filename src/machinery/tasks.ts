// Background tasks of this process (Weblate's `/api/tasks/<uuid>/`): started with a function that reports progress,
// followed by id until an hour after they end.
import { randomUUID } from 'node:crypto';

/** A task as `/api/tasks/<uuid>/` shows it (Weblate's fields), with who started it. */
export interface Task {
  id: string;
  ownerId: number | null;
  /** What the task works on, e.g. `hello/app/es` (one running task per key). */
  key: string;
  completed: boolean;
  /** 0–100. */
  progress: number;
  /** The task's outcome once completed (its message, counts), else null. */
  result: Record<string, unknown> | null;
  /** Lines of what happened (engine failures, the end). */
  log: string[];
  /** Resolves when the task ends. */
  done: Promise<void>;
}

/** What a task's function is given: a way to say how far it is and to add to its log. */
export interface TaskReporter {
  progress(done: number, total: number): void;
  log(line: string): void;
}

const KEEP_MS = 3_600_000;

export class Tasks {
  private readonly tasks = new Map<string, Task>();

  /** Starts `work` in the background (it must not throw; a throw is logged and ends the task). */
  start(key: string, ownerId: number | null, work: (report: TaskReporter) => Promise<Record<string, unknown>>): Task {
    const task: Task = { id: randomUUID(), ownerId, key, completed: false, progress: 0, result: null, log: [], done: Promise.resolve() };
    const report: TaskReporter = {
      progress: (done, total) => {
        task.progress = total === 0 ? 100 : Math.min(100, Math.floor((done * 100) / total));
      },
      log: (line) => {
        if (task.log.length < 1000) task.log.push(line);
      },
    };
    task.done = (async () => {
      try {
        task.result = await work(report);
      } catch (e) {
        task.result = { error: (e as Error).message };
        report.log(`failed: ${(e as Error).message}`);
      }
      task.progress = 100;
      task.completed = true;
      setTimeout(() => this.tasks.delete(task.id), KEEP_MS).unref();
    })();
    this.tasks.set(task.id, task);
    return task;
  }

  get(id: string): Task | undefined {
    return this.tasks.get(id);
  }

  /** The running task on `key`, if any. */
  running(key: string): Task | undefined {
    for (const t of this.tasks.values()) if (t.key === key && !t.completed) return t;
    return undefined;
  }
}
