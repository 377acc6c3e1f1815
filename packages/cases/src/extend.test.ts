import { describe, expect, it } from 'vitest';
import { extendCase, programsFrom, resolveExtends } from './extend';

describe('extendCase', () => {
  it('inherits every field but id and calibration, merges params and verify one level, and the instance wins', () => {
    const base = { id: 'b', title: 'B', calibration: { attempts: 3 }, params: { a: 1, b: 2 }, verify: { seeds: [1, 2], program: 'p' }, tags: ['x'] };
    const own = { id: 'i', extends: 'b', params: { b: 3 }, verify: { seeds: [1] }, tags: ['y'] };
    expect(extendCase(base, own)).toEqual({
      id: 'i', extends: 'b', title: 'B', params: { a: 1, b: 3 }, verify: { seeds: [1], program: 'p' }, tags: ['y'],
    });
  });
  it('names a missing base and refuses a chain', () => {
    expect(resolveExtends({ id: 'i', extends: 'nope' }, new Map())).toEqual({ ok: false, message: 'extends "nope": no case with that id in the set' });
    const chained = new Map([['mid', { id: 'mid', extends: 'root' }]]);
    expect(resolveExtends({ id: 'i', extends: 'mid' }, chained)).toMatchObject({ ok: false, message: expect.stringContaining('one level only') });
    expect(resolveExtends({ id: 'plain' }, new Map())).toEqual({ ok: true, value: { id: 'plain' } });
  });
  it('says when an instance runs its base programs unchanged', () => {
    expect(programsFrom({ id: 'i', extends: 'b', params: {} })).toBe('b');
    expect(programsFrom({ id: 'i', extends: 'b', derive: { program: 'x' } })).toBeNull();
    expect(programsFrom({ id: 'i', extends: 'b', verify: { program: 'x' } })).toBeNull();
    expect(programsFrom({ id: 'i' })).toBeNull();
  });
});
