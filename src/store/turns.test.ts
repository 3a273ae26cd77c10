import { describe, expect, it } from 'vitest';
import { Turns } from './turns.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('Turns', () => {
  it('runs readers together, a writer alone, and a waiting writer before the readers that come after it', async () => {
    const turns = new Turns();
    const log: string[] = [];
    const reader = (name: string) =>
      turns.read(async () => {
        log.push(`${name} in`);
        await tick();
        log.push(`${name} out`);
      });
    const writer = (name: string) =>
      turns.write(async () => {
        log.push(`${name} in`);
        await tick();
        log.push(`${name} out`);
      });
    await Promise.all([reader('r1'), reader('r2'), writer('w1'), reader('r3'), writer('w2')]);
    expect(log).toEqual(['r1 in', 'r2 in', 'r1 out', 'r2 out', 'w1 in', 'w1 out', 'r3 in', 'r3 out', 'w2 in', 'w2 out']);
  });

  it('hands the connection on after a unit of work that throws', async () => {
    const turns = new Turns();
    const failure = new Error('no');
    await expect(turns.write(() => Promise.reject(failure))).rejects.toBe(failure);
    await expect(turns.read(() => Promise.reject(failure))).rejects.toBe(failure);
    expect(await turns.write(async () => 'after')).toBe('after');
    expect(turns.writer).toBe(false);
  });
});
