import { describe, expect, it } from 'vitest';
import { balancedJsonSpans } from './index';

const texts = (text: string, arrays?: boolean) => balancedJsonSpans(text, arrays === undefined ? {} : { arrays }).map((s) => text.slice(s.start, s.end + 1));

describe('balancedJsonSpans', () => {
  it('finds top-level objects and arrays, string-aware, nested ones not on their own', () => {
    expect(texts('a {"x": {"y": "}"}} b [1, [2]] c')).toEqual(['{"x": {"y": "}"}}', '[1, [2]]']);
    expect(texts('a {"x": "\\"}"} b')).toEqual(['{"x": "\\"}"}']);
  });
  it('skips an opener that never closes and goes on after it', () => {
    expect(texts('{ stray brace then {"ok": true}')).toEqual(['{"ok": true}']);
  });
  it('objects only when arrays are off', () => {
    expect(texts('[1] {"a": [1]}', false)).toEqual(['{"a": [1]}']);
  });
});
