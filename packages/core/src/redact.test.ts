import { describe, expect, it } from 'vitest';
import { makeRedactor, redactDeep, redactSecrets } from './index';

describe('redactSecrets', () => {
  it('replaces every occurrence of every secret, longest first', () => {
    expect(redactSecrets('key sk-abc-LONG and sk-abc and sk-abc-LONG', ['sk-abc', 'sk-abc-LONG'])).toBe('key [redacted] and [redacted] and [redacted]');
  });

  it('catches the JSON-escaped form of a secret', () => {
    const scrub = makeRedactor(['k"e\\y-1234']);
    expect(scrub(JSON.stringify({ m: 'x k"e\\y-1234 y' }))).toBe('{"m":"x [redacted] y"}');
  });

  it('ignores empty, missing and very short values and leaves other text alone', () => {
    expect(redactSecrets('a b c', ['', undefined, 'a'])).toBe('a b c');
  });

  it('redactDeep walks objects and arrays and keeps numbers', () => {
    const scrub = makeRedactor(['LEAKME-1']);
    expect(redactDeep({ a: ['Bearer LEAKME-1'], b: { c: 'LEAKME-1!' }, n: 3, z: null }, scrub)).toEqual({ a: ['Bearer [redacted]'], b: { c: '[redacted]!' }, n: 3, z: null });
  });
});
