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
    const capture = new CappedCapture(4, null, 8);
    for (let i = 0; i < 100; i++) capture.push(Buffer.from(`line${i}\n`));
    expect(capture.tailText()).toBe('\nline99\n');
  });

  it('finds a token split across chunks, even past the cap', () => {
    const capture = new CappedCapture(4, 'TOKEN-123');
    capture.push(Buffer.from('x'.repeat(50)));
    capture.push(Buffer.from('..TOK'));
    expect(capture.tokenSeen).toBe(false);
    capture.push(Buffer.from('EN-1'));
    capture.push(Buffer.from('23\n'));
    expect(capture.tokenSeen).toBe(true);
  });

  it('does not see a token that never completes', () => {
    const capture = new CappedCapture(100, 'TOKEN');
    capture.push(Buffer.from('TOKE'));
    capture.push(Buffer.from('N'.toLowerCase()));
    expect(capture.tokenSeen).toBe(false);
  });
});
