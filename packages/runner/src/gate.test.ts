import { describe, expect, it } from 'vitest';
import { RunGate } from './gate';

const tick = () => new Promise((r) => setImmediate(r));

describe('RunGate', () => {
  it('lets shared work overlap, runs exclusive work alone, and a waiting writer goes before new readers', async () => {
    const gate = new RunGate();
    const log: string[] = [];
    let release!: () => void;
    const hold = new Promise<void>((r) => (release = r));
    const a = gate.shared(async () => {
      log.push('a start');
      await hold;
      log.push('a end');
    });
    const b = gate.shared(async () => void log.push('b'));
    await tick();
    const w = gate.exclusive(async () => void log.push('speed'));
    const c = gate.shared(async () => void log.push('c'));
    await tick();
    expect(log).toEqual(['a start', 'b']); // the writer waits for a; c waits for the writer
    release();
    await Promise.all([a, b, w, c]);
    expect(log).toEqual(['a start', 'b', 'a end', 'speed', 'c']);
  });

  it('runs writers one at a time and frees the gate when work throws', async () => {
    const gate = new RunGate();
    const log: string[] = [];
    await expect(gate.exclusive(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await Promise.all([gate.exclusive(async () => void log.push('w1')), gate.exclusive(async () => void log.push('w2')), gate.shared(async () => void log.push('r'))]);
    expect(log).toEqual(['w1', 'w2', 'r']);
  });
});
