// The password prompt on a terminal: typed keys in, nothing echoed, and a prompt given up with Ctrl+C or Ctrl+D.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { EXIT_INTERRUPTED, readNewPassword } from './password-input.js';

/** A terminal in memory: keys are written to `input`, and `shown` is what the prompt wrote. */
function terminal() {
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => input }) as unknown as NodeJS.ReadStream & PassThrough;
  const output = Object.assign(new PassThrough(), { isTTY: true, columns: 80 }) as unknown as NodeJS.WriteStream & PassThrough;
  let shown = '';
  output.on('data', (chunk: Buffer) => {
    shown += chunk.toString('utf8');
  });
  // readline moves the cursor with escape sequences: what a person reads is the text between them
  return { input, output, shown: () => shown.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '') };
}

/** The prompt's outcome, or 'still waiting' when it has neither answered nor failed after a while. */
async function outcome(promise: Promise<string>): Promise<unknown> {
  const waiting = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 1000));
  return Promise.race([
    promise.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    ),
    waiting,
  ]);
}

describe('the password prompt on a terminal', () => {
  it('asks twice without echoing what is typed', async () => {
    const t = terminal();
    const answer = readNewPassword(false, t.input, t.output);
    t.input.write('secret-password\r');
    await new Promise((resolve) => setTimeout(resolve, 20));
    t.input.write('secret-password\r');
    expect(await outcome(answer)).toEqual({ value: 'secret-password' });
    expect(t.shown()).toBe('Password: \nPassword (again): \n');
  });

  it('gives up on Ctrl+C with the exit status of an interrupted command, a new line ending the question', async () => {
    const t = terminal();
    const answer = readNewPassword(false, t.input, t.output);
    t.input.write('half-typ\x03');
    const result = (await outcome(answer)) as { error: { code: string; data: { exitCode: number } } };
    expect(result.error).toMatchObject({ code: 'CliFailure', data: { exitCode: EXIT_INTERRUPTED } });
    expect(t.shown()).toBe('Password: \n');
  });

  it('gives up when the input ends (Ctrl+D) at the second question', async () => {
    const t = terminal();
    const answer = readNewPassword(false, t.input, t.output);
    t.input.write('secret-password\r');
    await new Promise((resolve) => setTimeout(resolve, 20));
    t.input.write('\x04');
    const result = (await outcome(answer)) as { error: { code: string; data: { exitCode: number } } };
    expect(result.error).toMatchObject({ code: 'CliFailure', data: { exitCode: 1 } });
  });
});
