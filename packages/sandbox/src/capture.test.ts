import { describe, expect, it } from 'vitest';
import { CappedCapture } from './capture';

describe('CappedCapture', () => {
  it('keeps the head up to the cap, counts everything and flags truncation', () => {
    const capture = new CappedCapture(10);
    capture.push(Buffer.from('hello '));
    capture.push(Buffer.from('world, long line'));
    expect(capture.text()).toBe('hello worl');
    expect(capture.totalBytes).toBe(22);
    expect(capture.truncated).toBe(true);
    expect(capture.tailText()).toBe('hello world, long line');
  });

  it('is not truncated at exactly the cap', () => {
    const capture = new CappedCapture(5);
    capture.push(Buffer.from('12345'));
    expect(capture.truncated).toBe(false);
  });

  it('keeps only the last bytes as tail', () => {
    const capture = new CappedCapture(4, 8);
    for (let i = 0; i < 100; i++) capture.push(Buffer.from(`line${i}\n`));
    expect(capture.tailText()).toBe('\nline99\n');
  });
});
