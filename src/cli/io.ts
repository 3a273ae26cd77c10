// Where CLI commands write: stdout/stderr, swappable in tests.

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

/** A command that fails in a way the user can act on: one clear line on stderr, exit 1. */
export class CliFailure extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
