// Runs the CLI in-process with captured output.
import { main } from '../../src/cli/index.js';
import type { CliIo } from '../../src/cli/io.js';

export interface CliResult {
  code: number;
  stdout: string[];
  stderr: string[];
}

export async function runCli(args: string[]): Promise<CliResult> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: CliIo = { out: (l) => stdout.push(...l.split('\n')), err: (l) => stderr.push(...l.split('\n')), isTty: false };
  const code = await main(args, io);
  return { code, stdout, stderr };
}
