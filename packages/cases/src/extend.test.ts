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
  it('names a missing base, resolves a chain base-first, and refuses cycles and over-long chains', () => {
    expect(resolveExtends({ id: 'i', extends: 'nope' }, new Map())).toEqual({ ok: false, message: 'extends "nope": no case with that id in the set' });
    const root = { id: 'root', title: 'R', prompt: 'p', params: { a: 1, b: 1 }, calibration: { attempts: 3 } };
    const mid = { id: 'mid', extends: 'root', prompt: 'long p', params: { b: 2 }, calibration: { attempts: 4 } };
    const bases = new Map<string, Record<string, unknown>>([['root', root], ['mid', mid]]);
    expect(resolveExtends({ id: 'i', extends: 'mid', params: { a: 9 } }, bases)).toEqual({
      ok: true, value: { id: 'i', extends: 'mid', title: 'R', prompt: 'long p', params: { a: 9, b: 2 } },
    });
    expect(resolveExtends({ id: 'i', extends: 'mid' }, new Map([['mid', mid]]))).toEqual({ ok: false, message: 'extends "mid": its base chain names "root", no case with that id in the set' });
    const cycle = new Map([['x', { id: 'x', extends: 'y' }], ['y', { id: 'y', extends: 'x' }]]);
    expect(resolveExtends({ id: 'x', extends: 'y' }, cycle)).toEqual({ ok: false, message: 'extends "y": a cycle (y → x → y)' });
    const long = new Map(['a', 'b', 'c', 'd', 'e'].map((k, i, all) => [k, i < 4 ? { id: k, extends: all[i + 1]! } : { id: k }]));
    expect(resolveExtends({ id: 'i', extends: 'a' }, long)).toEqual({ ok: false, message: 'extends "a": more than 4 bases in a chain (a → b → c → d → e)' });
    expect(resolveExtends({ id: 'i', extends: 'b' }, long)).toMatchObject({ ok: true });
    expect(resolveExtends({ id: 'plain' }, new Map())).toEqual({ ok: true, value: { id: 'plain' } });
  });
  it('says when an instance runs its base programs unchanged', () => {
    expect(programsFrom({ id: 'i', extends: 'b', params: {} })).toBe('b');
    expect(programsFrom({ id: 'i', extends: 'b', derive: { program: 'x' } })).toBeNull();
    expect(programsFrom({ id: 'i', extends: 'b', verify: { program: 'x' } })).toBeNull();
    expect(programsFrom({ id: 'i' })).toBeNull();
  });
});
