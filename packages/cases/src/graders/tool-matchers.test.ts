import { describe, expect, it } from 'vitest';
import { argProblem, argsProblem, normalizeDate, parseInstant } from './tool-matchers';

describe('argument matchers', () => {
  it('numbers: 50 never matches 150 or "50"', () => {
    expect(argProblem(50, true, 50)).toBeNull();
    expect(argProblem(50, true, 150)).toBe('expected 50, got 150');
    expect(argProblem({ number: 50 }, true, '50')).toBe('expected the number 50, got "50"');
    expect(argProblem({ number: 19.99, tolerance: 0.005 }, true, 19.994)).toBeNull();
  });
  it('strings: shorthand equals is trimmed and case-insensitive unless asked', () => {
    expect(argProblem('Tokyo', true, ' tokyo ')).toBeNull();
    expect(argProblem({ equals: 'Tokyo', case_sensitive: true }, true, 'tokyo')).toMatch(/^expected/);
    expect(argProblem({ enum: ['metric', 'si'] }, true, 'Metric')).toBeNull();
    expect(argProblem({ enum: ['metric'] }, true, 'imperial')).toBe('expected one of ["metric"], got "imperial"');
  });
  it('regex, contains, set, length, present, absent', () => {
    expect(argProblem({ regex: '^ORD-\\d{5}$' }, true, 'ORD-20871')).toBeNull();
    expect(argProblem({ contains: 'refund' }, true, 'Please refund order')).toBeNull();
    expect(argProblem({ contains: 'fund' }, true, 'refund')).toMatch(/lacks/);
    expect(argProblem({ set: ['a', 'b'] }, true, ['b', 'a'])).toBeNull();
    expect(argProblem({ set: ['a', 'b'] }, true, ['a', 'a'])).toBe('missing "b"');
    expect(argProblem({ length: 3 }, true, [1, 2])).toBe('expected length 3, got 2');
    expect(argProblem({ present: true }, false, undefined)).toBe('missing');
    expect(argProblem({ absent: true }, true, 1)).toBe('must be absent, got 1');
    expect(argProblem({ absent: true }, false, undefined)).toBeNull();
  });
  it('dates in unambiguous formats, instants across offsets', () => {
    for (const d of ['2026-03-06', '2026/3/6', 'March 6, 2026', '6 March 2026', 'Mar 6th 2026', '2026-03-06T09:00:00Z']) {
      expect(normalizeDate(d), d).toBe('2026-03-06');
    }
    expect(normalizeDate('03/06/2026')).toBeNull();
    expect(normalizeDate('2026-02-30')).toBeNull();
    expect(parseInstant('2026-03-06T18:00:00+09:00')).toBe(parseInstant('2026-03-06T09:00:00Z'));
    expect(argProblem({ datetime: '2026-03-06T09:00:00Z' }, true, '2026-03-06T10:00:00+01:00')).toBeNull();
  });
  it('nested paths and extra arguments', () => {
    const args = { order: { items: [{ sku: 'A-1', qty: 2 }] }, note: 'x' };
    expect(argsProblem({ args: { 'order.items[0].qty': 2, 'order.items': { length: 1 } } }, args)).toBeNull();
    expect(argsProblem({ args: { 'order.items[1].sku': 'B' } }, args)).toBe('order.items[1].sku: missing');
    expect(argsProblem({ args: { order: { present: true } }, extra_args: 'forbid' }, args)).toBe('unexpected argument "note"');
    expect(argsProblem({ args: {} }, null)).toBe('arguments are not a JSON object');
  });
  it('some / every over array items, fields over objects (compose with every other matcher)', () => {
    const items = [{ sku: 'A-51', qty: 1 }, { sku: 'A-15', qty: 2 }];
    expect(argProblem({ some: { fields: { sku: { equals: 'A-15', case_sensitive: true }, qty: 2 } } }, true, items)).toBeNull();
    expect(argProblem({ some: { fields: { sku: 'A-15', qty: 3 } } }, true, items)).toBe('no item matches (item [0]: sku: expected "A-15", got "A-51")');
    expect(argProblem({ some: 'Varn' }, true, ['Ostrel', 'varn'])).toBeNull();
    expect(argProblem({ some: { regex: '^ORD-\\d{5}$' } }, true, ['ORD-1', 'ORD-2'])).toBe('no item matches (item [0]: "ORD-1" does not match /^ORD-\\d{5}$/)');
    expect(argProblem({ some: 'x' }, true, [])).toBe('expected an item that matches, got an empty array');
    expect(argProblem({ some: 'x' }, true, 'x')).toBe('expected an array, got "x"');
    expect(argProblem({ every: { fields: { qty: { number: 2, tolerance: 1 } } } }, true, items)).toBeNull();
    expect(argProblem({ every: { fields: { qty: 2 } } }, true, items)).toBe('item [0]: qty: expected 2, got 1');
    expect(argProblem({ every: { number: 1 } }, true, [])).toBe('expected items, got an empty array');
    expect(argProblem({ fields: { 'dims.w': 3, note: { absent: true } } }, true, { dims: { w: 3 } })).toBeNull();
    expect(argProblem({ fields: { 'dims.w': 3 } }, true, [3])).toBe('expected an object, got [3]');
    expect(argsProblem({ args: { items: { some: { fields: { sku: 'A-15' } } } } }, { items })).toBeNull();
    expect(argsProblem({ args: { items: { some: { fields: { sku: 'B-2' } } } } }, { items })).toMatch(/^items: no item matches/);
  });
});
