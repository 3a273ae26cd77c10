// Reading a password for the CLI: the first line of standard input, or a prompt without echo on a terminal.
import { createInterface } from 'node:readline';
import { MIN_PASSWORD_LENGTH } from '../auth/password.js';
import { CliFailure } from './io.js';

/** The first line of a stream (without its line ending); the rest is not read. */
export async function firstLine(input: NodeJS.ReadableStream): Promise<string> {
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY, terminal: false });
  try {
    for await (const line of lines) return line;
    return '';
  } finally {
    lines.close();
  }
}

/** The exit status of a prompt given up with Ctrl+C, as a shell reports a command that SIGINT ended. */
export const EXIT_INTERRUPTED = 130;

/**
 * Asks twice on the terminal, echoing nothing, and checks both answers agree. Ctrl+C or Ctrl+D at a question gives
 * up (a CliFailure): left to itself, readline would only pause, and the command would end with nothing said.
 */
async function prompt(input: NodeJS.ReadStream, output: NodeJS.WriteStream): Promise<string> {
  const ask = (question: string) =>
    new Promise<string>((resolve, reject) => {
      const rl = createInterface({ input, output, terminal: true });
      let answered = false;
      // Echo nothing of what is typed: only the question is written.
      (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
        if (s.startsWith(question)) output.write(question);
      };
      rl.once('SIGINT', () => {
        answered = true;
        rl.close();
        output.write('\n');
        reject(new CliFailure('interrupted: no password was set', EXIT_INTERRUPTED));
      });
      rl.once('close', () => {
        if (answered) return;
        output.write('\n');
        reject(new CliFailure('no password given (the input ended): no password was set'));
      });
      rl.question(question, (answer) => {
        answered = true;
        rl.close();
        output.write('\n');
        resolve(answer);
      });
    });
  const first = await ask('Password: ');
  const second = await ask('Password (again): ');
  if (first !== second) throw new CliFailure('the passwords do not match');
  return first;
}

/**
 * The new password: standard input's first line when `fromStdin` or when standard input is not a terminal,
 * else a prompt. Too short a password is refused (it is never printed).
 */
export async function readNewPassword(
  fromStdin: boolean,
  input: NodeJS.ReadStream = process.stdin,
  output: NodeJS.WriteStream = process.stderr,
): Promise<string> {
  const password = fromStdin || !input.isTTY ? await firstLine(input) : await prompt(input, output);
  if (password.length < MIN_PASSWORD_LENGTH) throw new CliFailure(`the password must have at least ${MIN_PASSWORD_LENGTH} characters`);
  return password;
}
