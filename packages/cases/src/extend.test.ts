import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { extendCase, programsFrom, resolveExtends } from './extend';
import { loadCases, parseCaseFile } from './loader';
import { caseRevision } from './revision';

const BASE = `id: math-family-base
title: A seeded sum
category: math
difficulty: medium
tags: [seeded]
prompt: "What is {{a}} + {{b}}? End with \\"Answer: <integer>\\"."
params:
  a: { int: [1, 9] }
  b: { choice: [10] }
derive:
  program: |
    import json, sys
    p = json.load(sys.stdin)['params']
    print(json.dumps({'answer': p['a'] + p['b'], 'vars': {}}))
max_tokens: 256
grader:
  type: number
reference: {}
verify:
  seeds: [1, 2]
  program: |
    import json, sys
    p = json.load(sys.stdin)['params']
    print(p['a'] + p['b'])
calibration: { attempts: 3, passes: 2, solver: blind chat model, date: 2026-12-01, revision: 8c3b5b2e2d50 }
`;
const INSTANCE = `id: math-family-b20
extends: math-family-base
title: The seeded sum with b = 20
params: { b: { choice: [20] } }
verify: { seeds: [1] }
`;

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

let dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  dirs = [];
});
async function casesDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cf-extend-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

describe('loading cases that extend a base', () => {
  it('resolves a base in another file; the instance has its own id, no inherited calibration, merged params', async () => {
    const r = await loadCases(await casesDir({ 'math/base.yaml': BASE, 'math/sub/instances.yaml': INSTANCE }));
    if (!r.ok) throw new Error(r.problems.map((p) => `${p.file} ${p.path}: ${p.message}`).join('\n'));
    const inst = r.cases.find((c) => c.def.id === 'math-family-b20')!;
    expect(inst.def).toMatchObject({ category: 'math', difficulty: 'medium', params: { a: { int: [1, 9] }, b: { choice: [20] } } });
    expect(inst.def.calibration).toBeUndefined();
    expect(inst.def.verify?.seeds).toEqual([1]);
    expect(inst.programsOf).toBe('math-family-base');
    expect(r.cases.find((c) => c.def.id === 'math-family-base')!.programsOf).toBeUndefined();
  });
  it('gives the instance the revision an inline copy would have', async () => {
    const r = await loadCases(await casesDir({ 'math/base.yaml': BASE, 'math/instances.yaml': INSTANCE }));
    if (!r.ok) throw new Error('load failed');
    const inst = r.cases.find((c) => c.def.id === 'math-family-b20')!;
    const inline = BASE.replace('id: math-family-base', 'id: math-family-b20').replace('b: { choice: [10] }', 'b: { choice: [20] }').replace(/^calibration:.*\n/m, '');
    const copy = parseCaseFile(inline, 'math/copy.yaml').cases[0]!;
    expect(inst.revision).toBe(copy.revision);
    expect(inst.revision).toBe(caseRevision(copy.def));
    expect(inst.revision).not.toBe(r.cases.find((c) => c.def.id === 'math-family-base')!.revision);
  });
  it('names the file and the field of an instance whose base is missing, and loads nothing', async () => {
    const r = await loadCases(await casesDir({ 'math/instances.yaml': INSTANCE }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toEqual([expect.objectContaining({ file: 'math/instances.yaml', line: 2, path: 'extends', message: 'extends "math-family-base": no case with that id in the set' })]);
  });
  it('checks the merged case against the schema and the folder rule', async () => {
    const bad = `${INSTANCE}max_tokens: 4\n`;
    const r = await loadCases(await casesDir({ 'math/base.yaml': BASE, 'reasoning/instances.yaml': bad }));
    if (r.ok) throw new Error('expected problems');
    expect(r.problems.map((p) => `${p.file} ${p.path}`)).toEqual(expect.arrayContaining(['reasoning/instances.yaml max_tokens']));
    const r2 = await loadCases(await casesDir({ 'math/base.yaml': BASE, 'reasoning/instances.yaml': INSTANCE }));
    if (r2.ok) throw new Error('expected problems');
    expect(r2.problems.map((p) => p.message)).toEqual(['"math" case in the "reasoning/" folder']);
  });
});
