import { describe, expect, it } from 'vitest';
import { EMPTY_USAGE, finiteNumber, jsonObject, nonEmptyString } from './index';

describe('JSON field readers', () => {
  it('finiteNumber keeps finite numbers only', () => {
    expect(finiteNumber(0)).toBe(0);
    expect(finiteNumber(-2.5)).toBe(-2.5);
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, '3', 3n, null, undefined, {}, [1]]) expect(finiteNumber(bad)).toBeNull();
  });

  it('nonEmptyString keeps strings with a character', () => {
    expect(nonEmptyString('q4_K_M')).toBe('q4_K_M');
    expect(nonEmptyString(' ')).toBe(' ');
    for (const bad of ['', 7, null, undefined, ['a']]) expect(nonEmptyString(bad)).toBeNull();
  });

  it('jsonObject keeps plain objects, not arrays or null', () => {
    const o = { a: 1 };
    expect(jsonObject(o)).toBe(o);
    for (const bad of [null, [], 'x', 1, undefined]) expect(jsonObject(bad)).toBeNull();
  });
});

describe('EMPTY_USAGE', () => {
  it('says every count is unknown, and cannot be changed by a caller', () => {
    expect(EMPTY_USAGE).toEqual({ prompt_tokens: null, completion_tokens: null, reasoning_tokens: null, cached_tokens: null, cost_usd: null });
    expect(() => {
      (EMPTY_USAGE as { prompt_tokens: number | null }).prompt_tokens = 1;
    }).toThrow(TypeError);
  });
});
