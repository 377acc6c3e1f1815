import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCases, parseCaseFile } from './loader';
import { caseRevision } from './revision';
import { formatProblem } from './yaml-source';

const GOOD = `id: math-small-sum
title: A small sum
category: math
difficulty: easy
prompt: |
  What is 2 + 3? End with "Answer: <integer>".
max_tokens: 256
grader:
  type: number
reference:
  answer: 5
verify:
  program: print(2 + 3)
`;

let dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  dirs = [];
});
async function casesDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cf-cases-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

describe('parseCaseFile', () => {
  it('parses a valid case', () => {
    const r = parseCaseFile(GOOD, 'math/math-small-sum.yaml');
    expect(r.problems).toEqual([]);
    expect(r.cases[0]!.def.id).toBe('math-small-sum');
    expect(r.cases[0]!.seeded).toBe(false);
  });
  it('reports malformed YAML as file:line:column', () => {
    const r = parseCaseFile('id: x\ntitle: [unclosed\nmax_tokens: 3\n', 'math/x.yaml');
    expect(formatProblem(r.problems[0]!)).toMatch(/^math\/x\.yaml:\d+:\d+: YAML: /);
  });
  it('reports schema violations with the path inside the case and its line', () => {
    const text = GOOD.replace('type: number', 'type: number\n  tolerence: 0.1').replace('max_tokens: 256', 'max_tokens: lots');
    const lines = parseCaseFile(text, 'math/m.yaml').problems.map(formatProblem);
    expect(lines).toContain('math/m.yaml:7:13: max_tokens: Invalid input: expected number, received string');
    expect(lines).toContain('math/m.yaml:10:3: grader.tolerence: unknown field');
  });
  it('hints that a value with a comma inside { … } must be quoted', () => {
    const text = GOOD.replace('grader:\n  type: number', 'grader:\n  type: checks\n  checks:\n    - { check: required_words, words: [boil], label: times, and boil }').replace('  answer: 5', '  reply: boil');
    expect(parseCaseFile(text, 'math/m.yaml').problems.map(formatProblem)).toEqual([
      'math/m.yaml:11:61: grader.checks[0].and boil: unknown field; inside { … } a comma ends a value, so quote a value that contains a comma: label: "times, and boil"',
    ]);
    // a genuinely unknown field with a value (or in a block map) keeps the plain message
    const plain = GOOD.replace('grader:\n  type: number', 'grader:\n  type: checks\n  checks:\n    - { check: required_words, words: [boil], lable: times }').replace('  answer: 5', '  reply: boil');
    expect(parseCaseFile(plain, 'math/m.yaml').problems.map(formatProblem)).toEqual(['math/m.yaml:11:47: grader.checks[0].lable: unknown field']);
  });
  it('names the failing branch of a grader union', () => {
    const text = GOOD.replace('type: number', 'type: nmber');
    expect(parseCaseFile(text, 'math/m.yaml').problems.map(formatProblem)[0]).toMatch(/^math\/m\.yaml:9:\d+: grader\.type: Invalid discriminator value/);
  });
  it('applies the consistency rules with paths', () => {
    const text = GOOD.replace('id: math-small-sum', 'id: coding-small-sum').replace('difficulty: easy', 'difficulty: hard');
    const lines = parseCaseFile(text, 'math/m.yaml').problems.map(formatProblem);
    expect(lines).toContain('math/m.yaml:1:5: id: must start with "math-" (the category)');
    expect(lines.some((l) => l.includes('why_hard: hard cases say why'))).toBe(true);
  });
  it('revision ignores grading-only edits and tracks question edits', () => {
    const a = parseCaseFile(GOOD, 'math/a.yaml').cases[0]!;
    const b = parseCaseFile(GOOD.replace('answer: 5', 'answer: 6').replace('title: A small sum', 'title: Renamed'), 'math/a.yaml').cases[0]!;
    const c = parseCaseFile(GOOD.replace('2 + 3?', '2 + 4?'), 'math/a.yaml').cases[0]!;
    expect(b.revision).toBe(a.revision);
    expect(c.revision).not.toBe(a.revision);
    expect(a.revision).toBe(caseRevision(a.def));
    expect(a.revision).toMatch(/^[0-9a-f]{12}$/);
  });
});

describe('loadCases', () => {
  it('loads a directory, skipping profiles/', async () => {
    const dir = await casesDir({ 'math/a.yaml': GOOD, 'profiles/full.yaml': 'name: full\ninclude: [{all: true}]\n' });
    const r = await loadCases(dir);
    expect(r.ok && r.cases.map((c) => c.def.id)).toEqual(['math-small-sum']);
  });
  it('is all or nothing and names both files of a duplicate id', async () => {
    const dir = await casesDir({ 'math/a.yaml': GOOD, 'math/b.yaml': GOOD, 'math/c.yaml': GOOD.replace('small-sum', 'other') });
    const r = await loadCases(dir);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems.map(formatProblem)).toEqual(['math/b.yaml: id: duplicate id "math-small-sum" (also in math/a.yaml)']);
  });
  it('rejects a case in the wrong folder or at the root, and a missing dir', async () => {
    const dir = await casesDir({ 'coding/a.yaml': GOOD, 'loose.yaml': GOOD.replace('small-sum', 'loose') });
    const r = await loadCases(dir);
    expect(!r.ok && r.problems.map(formatProblem)).toEqual([
      'coding/a.yaml:3:11: category: "math" case in the "coding/" folder',
      'loose.yaml: case files live in a category folder (e.g. math/<id>.yaml)',
    ]);
    const missing = await loadCases(join(dir, 'nope'));
    expect(missing.ok).toBe(false);
  });
  it('accepts several cases in one file as YAML documents', async () => {
    const dir = await casesDir({ 'math/two.yaml': `${GOOD}---\n${GOOD.replace('small-sum', 'second')}` });
    const r = await loadCases(dir);
    expect(r.ok && r.cases.map((c) => c.def.id)).toEqual(['math-second', 'math-small-sum']);
  });
});

describe('array matchers', () => {
  const TOOL = `id: tooluse-x
title: x y z
category: tooluse
difficulty: easy
prompt: q
max_tokens: 100
tools: [{ name: ship, parameters: { type: object, properties: { items: { type: array } } } }]
grader:
  type: tool_calls
  calls:
    - { name: ship, args: { items: { some: { fields: { sku: A-15, qty: { number: 2 } } } } } }
    - { name: ship, args: { items: { every: { fields: { sku: { regex: "PATTERN" } } } } } }
reference: { calls: [[{ name: ship, arguments: { items: [{ sku: A-15, qty: 2 }] } }]] }
`;
  it('parse nested some / every / fields, and check regexes inside them', () => {
    expect(parseCaseFile(TOOL.replace('PATTERN', '^A-\\\\d+$'), 'tooluse/t.yaml').problems).toEqual([]);
    const lines = parseCaseFile(TOOL.replace('PATTERN', '^(\\\\w+\\\\s?)*$'), 'tooluse/t.yaml').problems.map(formatProblem);
    expect(lines).toEqual([expect.stringMatching(/^tooluse\/t\.yaml:\d+:\d+: grader\.calls\[1\]\.args\.items\.every\.fields\.sku\.regex: nested quantifier/)]);
  });
});

describe('regex safety', () => {
  it('rejects nested quantifiers that backtrack catastrophically', () => {
    const text = GOOD.replace('grader:\n  type: number', 'grader:\n  type: regex\n  pattern: "^(\\\\w+\\\\s?)*$"').replace('  answer: 5', '  reply: ok');
    const lines = parseCaseFile(text, 'math/m.yaml').problems.map(formatProblem);
    expect(lines).toEqual([expect.stringMatching(/^math\/m\.yaml:10:12: grader\.pattern: nested quantifier/)]);
    const fine = GOOD.replace('grader:\n  type: number', 'grader:\n  type: regex\n  pattern: "^(?:ab)+\\\\d*$"').replace('  answer: 5', '  reply: ab1');
    expect(parseCaseFile(fine, 'math/m.yaml').problems).toEqual([]);
  });
});

describe('code test schema', () => {
  it('takes exactly one of expect and check', async () => {
    const { CodeTestSchema } = await import('./schema/graders');
    expect(CodeTestSchema.safeParse({ call: 'f()', expect: 1 }).success).toBe(true);
    expect(CodeTestSchema.safeParse({ call: 'f()', check: 'ok' }).success).toBe(true);
    expect(CodeTestSchema.safeParse({ call: 'f()' }).success).toBe(false);
    expect(CodeTestSchema.safeParse({ call: 'f()', expect: 1, check: 'ok' }).success).toBe(false);
    expect(CodeTestSchema.safeParse({ call: 'f()', expect: 1, compare: 'sorted' }).success).toBe(false);
  });
});

const FAMILY_BASE = `id: math-family-base
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
const FAMILY_INSTANCE = `id: math-family-b20
extends: math-family-base
title: The seeded sum with b = 20
params: { b: { choice: [20] } }
verify: { seeds: [1] }
`;

describe('loading cases that extend a base', () => {
  it('resolves a base in another file; the instance has its own id, no inherited calibration, merged params', async () => {
    const r = await loadCases(await casesDir({ 'math/base.yaml': FAMILY_BASE, 'math/sub/instances.yaml': FAMILY_INSTANCE }));
    if (!r.ok) throw new Error(r.problems.map((p) => `${p.file} ${p.path}: ${p.message}`).join('\n'));
    const inst = r.cases.find((c) => c.def.id === 'math-family-b20')!;
    expect(inst.def).toMatchObject({ category: 'math', difficulty: 'medium', params: { a: { int: [1, 9] }, b: { choice: [20] } } });
    expect(inst.def.calibration).toBeUndefined();
    expect(inst.def.verify?.seeds).toEqual([1]);
    expect(inst.programsOf).toBe('math-family-base');
    expect(r.cases.find((c) => c.def.id === 'math-family-base')!.programsOf).toBeUndefined();
  });
  it('gives the instance the revision an inline copy would have', async () => {
    const r = await loadCases(await casesDir({ 'math/base.yaml': FAMILY_BASE, 'math/instances.yaml': FAMILY_INSTANCE }));
    if (!r.ok) throw new Error('load failed');
    const inst = r.cases.find((c) => c.def.id === 'math-family-b20')!;
    const inline = FAMILY_BASE.replace('id: math-family-base', 'id: math-family-b20').replace('b: { choice: [10] }', 'b: { choice: [20] }').replace(/^calibration:.*\n/m, '');
    const copy = parseCaseFile(inline, 'math/copy.yaml').cases[0]!;
    expect(inst.revision).toBe(copy.revision);
    expect(inst.revision).toBe(caseRevision(copy.def));
    expect(inst.revision).not.toBe(r.cases.find((c) => c.def.id === 'math-family-base')!.revision);
  });
  it('names the file and the field of an instance whose base is missing, and loads nothing', async () => {
    const r = await loadCases(await casesDir({ 'math/instances.yaml': FAMILY_INSTANCE }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toEqual([expect.objectContaining({ file: 'math/instances.yaml', line: 2, path: 'extends', message: 'extends "math-family-base": no case with that id in the set' })]);
  });
  it('resolves an instance of an instance through both bases, and names the file of a cycle', async () => {
    const variant = FAMILY_INSTANCE.replace('title: The seeded sum with b = 20', 'title: The seeded sum with b = 20, asked twice\nprompt: "Twice: what is {{a}} + {{b}}? End with \\"Answer: <integer>\\"."');
    const chained = FAMILY_INSTANCE.replace('id: math-family-b20', 'id: math-family-b30').replace('extends: math-family-base', 'extends: math-family-b20').replace(/^title:.*$/m, 'title: b = 30').replace('[20]', '[30]');
    const r = await loadCases(await casesDir({ 'math/base.yaml': FAMILY_BASE, 'math/instances.yaml': variant, 'math/chained.yaml': chained }));
    if (!r.ok) throw new Error(r.problems.map((p) => `${p.file} ${p.path}: ${p.message}`).join('\n'));
    const b30 = r.cases.find((c) => c.def.id === 'math-family-b30')!;
    expect(b30.def).toMatchObject({ title: 'b = 30', prompt: expect.stringContaining('Twice:'), params: { a: { int: [1, 9] }, b: { choice: [30] } }, derive: expect.anything() });
    expect(b30.programsOf).toBe('math-family-b20');
    const loop = FAMILY_BASE.replace('id: math-family-base', 'id: math-family-base\nextends: math-family-b20');
    const bad = await loadCases(await casesDir({ 'math/base.yaml': loop, 'math/instances.yaml': FAMILY_INSTANCE }));
    if (bad.ok) throw new Error('expected problems');
    expect(bad.problems).toEqual(
      expect.arrayContaining([expect.objectContaining({ file: 'math/base.yaml', path: 'extends', message: 'extends "math-family-b20": a cycle (math-family-b20 → math-family-base → math-family-b20)' })]),
    );
  });
  it('checks the merged case against the schema and the folder rule', async () => {
    const bad = `${FAMILY_INSTANCE}max_tokens: 4\n`;
    const r = await loadCases(await casesDir({ 'math/base.yaml': FAMILY_BASE, 'reasoning/instances.yaml': bad }));
    if (r.ok) throw new Error('expected problems');
    expect(r.problems.map((p) => `${p.file} ${p.path}`)).toEqual(expect.arrayContaining(['reasoning/instances.yaml max_tokens']));
    const r2 = await loadCases(await casesDir({ 'math/base.yaml': FAMILY_BASE, 'reasoning/instances.yaml': FAMILY_INSTANCE }));
    if (r2.ok) throw new Error('expected problems');
    expect(r2.problems.map((p) => p.message)).toEqual(['"math" case in the "reasoning/" folder']);
  });
});
