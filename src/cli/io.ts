// Where CLI commands write: stdout/stderr, swappable in tests.
import { TmsError } from '../domain/errors.js';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** True when stdout is a terminal (progress bars instead of plain lines). */
  isTty: boolean;
}

export const processIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  isTty: Boolean(process.stdout.isTTY),
};

/** A command that fails in a way the user can act on: one clear line on stderr, exit 1 (2 for a usage error). */
export class CliFailure extends TmsError<{ exitCode: number }> {
  constructor(message: string, exitCode = 1) {
    super(message, { exitCode });
  }

  get exitCode(): number {
    return this.data.exitCode;
  }
}
