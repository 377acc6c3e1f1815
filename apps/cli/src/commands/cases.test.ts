import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCaseFile } from '@crucibleforge/cases';
import { createSandbox } from '@crucibleforge/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../main';
import { memoryIO } from '@crucibleforge/testkit';

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const REAL_CASES = join(REPO, 'cases');

const INSTRUCT = `id: instruct-three-words
title: Three words
category: instruct
difficulty: easy
prompt: Say hello in exactly three words.
max_tokens: 64
grader:
  type: checks
  checks: [{ check: word_count, exactly: 3 }]
reference:
  reply: hello there friend
verify:
  wrong_replies: [{ why: two words, reply: hello friend }, { why: four words, reply: hello there my friend }, { why: one word, reply: hello }]
  right_replies: [{ why: other words, reply: good morning all }, { why: with a full stop, reply: hi there everyone. }, { why: capitals, reply: HELLO DEAR FRIEND }]
`;
const TOOL = `id: tooluse-lookup
title: One lookup
category: tooluse
difficulty: easy
prompt: Look up order 50.
max_tokens: 64
tools:
  - { name: lookup, parameters: { type: object, properties: { order: { type: integer } }, required: [order] } }
grader: { type: tool_calls, calls: [{ name: lookup, args: { order: 50 } }] }
reference: { calls: [[{ name: lookup, arguments: { order: 50 } }]] }
verify:
  wrong_replies:
    - { why: lookalike, calls: [[{ name: lookup, arguments: { order: 150 } }]] }
    - { why: a string, calls: [[{ name: lookup, arguments: { order: "50" } }]] }
    - { why: no call, calls: [], reply: Order 50 is on its way. }
  right_replies:
    - { why: the call alone, calls: [[{ name: lookup, arguments: { order: 50 } }]] }
    - { why: with a note, calls: [[{ name: lookup, arguments: { order: 50 } }]], reply: Looking up order 50. }
    - { why: with a longer note, calls: [[{ name: lookup, arguments: { order: 50 } }]], reply: "Checking order 50 for you now." }
`;

let tmp = '';
async function casesDir(name: string, files: Record<string, string>): Promise<string> {
  const dir = join(tmp, name);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(join(dir, file, '..'), { recursive: true });
    await writeFile(join(dir, file), text);
  }
  return dir;
}

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'cf-cli-cases-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('crucibleforge cases list', () => {
  it('--json prints { id, category, difficulty, seeded } for the repo cases (found from the cwd)', async () => {
    const t = memoryIO({ cwd: REPO });
    expect(await main(['cases', 'list', '--json'], t.io)).toBe(0);
    const rows = JSON.parse(t.stdout()) as { id: string; category: string; difficulty: string; seeded: boolean }[];
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.find((r) => r.id === 'math-checkpoint-routes-exactly-two')).toMatchObject({ category: 'math', difficulty: 'medium', seeded: true });
    expect(rows.find((r) => r.id === 'math-digit-sum-mixed-product')).toMatchObject({ seeded: false });
  });
  it('filters by profile and category; the table ends with counts', async () => {
    const dir = await casesDir('listing', {
      'instruct/a.yaml': INSTRUCT,
      'tooluse/b.yaml': TOOL,
      'profiles/tools.yaml': 'name: tools\ninclude: [{categories: [tooluse]}]\n',
      'profiles/full.yaml': 'name: full\ninclude: [{all: true}]\n',
    });
    const t = memoryIO({ cwd: tmp });
    expect(await main(['cases', 'list', '--cases', dir, '--profile', 'full', '--category', 'tooluse'], t.io)).toBe(0);
    expect(t.stdout()).toContain('tooluse-lookup');
    expect(t.stdout()).not.toContain('instruct-three-words');
    expect(t.stdout()).toMatch(/\n1 cases \(tooluse 1\); easy 1; 0 seeded\n$/);
    const p = memoryIO({ cwd: tmp });
    expect(await main(['cases', 'list', '--cases', dir, '--profile', 'tools', '--json'], p.io)).toBe(0);
    expect((JSON.parse(p.stdout()) as { id: string }[]).map((r) => r.id)).toEqual(['tooluse-lookup']);
  });
  it('an unknown profile, profile id or category exits 2 naming the valid ones', async () => {
    const dir = await casesDir('profiles', { 'instruct/a.yaml': INSTRUCT, 'profiles/standard.yaml': 'name: standard\ninclude: [{all: true}]\n' });
    const t = memoryIO({ cwd: tmp });
    expect(await main(['cases', 'list', '--cases', dir, '--profile', 'standrd'], t.io)).toBe(2);
    expect(t.stderr()).toContain('unknown profile "standrd"; valid profiles: standard');
    const badIds = await casesDir('profile-ids', { 'instruct/a.yaml': INSTRUCT, 'profiles/p.yaml': 'name: p\ninclude: [{ids: [instruct-three-wrds]}]\n' });
    const v = memoryIO({ cwd: tmp });
    expect(await main(['cases', 'list', '--cases', badIds], v.io)).toBe(2);
    expect(v.stderr()).toContain('profile "p": unknown case id "instruct-three-wrds" (closest: instruct-three-words)');
    const u = memoryIO({ cwd: tmp });
    expect(await main(['cases', 'list', '--cases', dir, '--category', 'poetry'], u.io)).toBe(2);
    expect(u.stderr()).toContain('--category must be one of coding, math');
  });
  it('malformed YAML and schema errors exit 2 with file:line:column, nothing loaded', async () => {
    const dir = await casesDir('bad', { 'instruct/a.yaml': INSTRUCT.replace('max_tokens: 64', 'max_tokens: [64'), 'tooluse/b.yaml': TOOL.replace('difficulty: easy', 'difficulty: trivial') });
    const t = memoryIO({ cwd: tmp });
    expect(await main(['cases', 'list', '--cases', dir], t.io)).toBe(2);
    expect(t.stderr()).toMatch(new RegExp(`${join(dir, 'instruct/a.yaml').replace(/[/\\.]/g, '\\$&')}:\\d+:\\d+: YAML:`));
    expect(t.stderr()).toContain(`${join(dir, 'tooluse/b.yaml')}:4:13: difficulty: Invalid option`);
    expect(t.stderr()).toMatch(/problems in .*; nothing was loaded/);
    expect(t.stdout()).toBe('');
  });
});

describe('crucibleforge cases verify', () => {
  it('passes a sound set, prints the summary line and writes the JSON report', async () => {
    const dir = await casesDir('good', { 'instruct/a.yaml': INSTRUCT, 'tooluse/b.yaml': TOOL });
    const t = memoryIO({ cwd: tmp });
    expect(await main(['cases', 'verify', '--cases', dir, '--out', 'report.json'], t.io)).toBe(0);
    expect(t.stdout()).toContain(
      '2 cases checked, 0 with problems (0 reference solutions executed, 0 answers re-derived, 6 negative controls failed as expected, 0 haystacks rebuilt)',
    );
    expect(t.stderr()).toBe('');
    const report = JSON.parse(await readFile(join(tmp, 'report.json'), 'utf8')) as Record<string, unknown>;
    expect(report).toMatchObject({ checked: 2, problems: 0, executed: 0, rederived: 0, negative_controls: 6, haystacks: 0 });
    expect(report.results).toHaveLength(2);
    // --json: the same report on stdout and nothing else there; the summary goes to stderr
    const j = memoryIO({ cwd: tmp });
    expect(await main(['cases', 'verify', '--cases', dir, '--json'], j.io)).toBe(0);
    expect(JSON.parse(j.stdout())).toMatchObject({ checked: 2, problems: 0, negative_controls: report['negative_controls'] });
    expect(j.stderr()).toContain('2 cases checked, 0 with problems');
  });
  it('shows a progress line on a terminal, redrawn in place and cleared at the end', async () => {
    const dir = await casesDir('progress', { 'instruct/a.yaml': INSTRUCT, 'tooluse/b.yaml': TOOL });
    const t = memoryIO({ cwd: tmp, tty: true });
    expect(await main(['cases', 'verify', '--cases', dir], t.io)).toBe(0);
    expect(t.stderr()).toMatch(/\r\x1b\[2Kverify: 1\/2 cases · \d+ s/);
    expect(t.stderr()).toMatch(/\r\x1b\[2Kverify: 2\/2 cases · \d+ s\r\x1b\[2K$/);
    const piped = memoryIO({ cwd: tmp });
    expect(await main(['cases', 'verify', '--cases', dir], piped.io)).toBe(0);
    expect(piped.stderr()).toBe('');
  });
  it('exits 1 and names the case and the problem', async () => {
    const dir = await casesDir('broken', { 'instruct/a.yaml': INSTRUCT.replace('reply: hello there friend', 'reply: hello friend') });
    const t = memoryIO({ cwd: tmp });
    expect(await main(['cases', 'verify', '--cases', dir], t.io)).toBe(1);
    expect(t.stdout()).toContain('FAIL instruct-three-words (instruct/a.yaml)\n  - the reference fails its own grader: check 1 word_count failed: 2 words, expected exactly 3');
    expect(t.stdout()).toContain('1 cases checked, 1 with problems');
  });
  it('verifies only the given id or file; an unknown id exits 2 with the closest', async () => {
    const dir = await casesDir('pick', { 'instruct/a.yaml': INSTRUCT, 'tooluse/b.yaml': TOOL.replace('order: 50 } }]]', 'order: 51 } }]]') });
    const t = memoryIO({ cwd: tmp });
    expect(await main(['cases', 'verify', '--cases', dir, 'instruct-three-words'], t.io)).toBe(0);
    expect(t.stdout()).toContain('1 cases checked, 0 with problems');
    const f = memoryIO({ cwd: dir });
    expect(await main(['cases', 'verify', '--cases', dir, 'tooluse/b.yaml'], f.io)).toBe(1);
    const u = memoryIO({ cwd: tmp });
    expect(await main(['cases', 'verify', '--cases', dir, 'instruct-three-word'], u.io)).toBe(2);
    expect(u.stderr()).toContain('unknown case id "instruct-three-word" (closest: instruct-three-words');
  });
  it('verifies a real coding case in the sandbox (exit 3 without one)', async () => {
    const available = await createSandbox({ poolSize: 1 }).then(
      () => true,
      () => false,
    );
    const text = await readFile(join(REAL_CASES, 'coding', 'coding-merge-bookings.yaml'), 'utf8');
    const dir = await casesDir('real-code', { 'coding/coding-merge-bookings.yaml': text });
    // every mutant and every wrong reply of the corpus is a negative control
    const verify = parseCaseFile(text, 'coding/coding-merge-bookings.yaml').cases[0]!.def.verify as { wrong_solutions: unknown[]; wrong_replies: unknown[] };
    const controls = verify.wrong_solutions.length + verify.wrong_replies.length;
    const t = memoryIO({ cwd: tmp });
    const code = await main(['cases', 'verify', '--cases', dir, 'coding-merge-bookings', '-v'], t.io);
    if (!available) {
      expect(code).toBe(3);
      return;
    }
    expect(code).toBe(0);
    expect(t.stdout()).toMatch(/ok   coding-merge-bookings \(\d+\.\d s; sandbox \d+\.\d s\)/);
    expect(t.stdout()).toContain(`1 cases checked, 0 with problems (1 reference solutions executed, 0 answers re-derived, ${controls} negative controls failed as expected`);
  });
  it('usage errors exit 2', async () => {
    const t = memoryIO({ cwd: REPO });
    expect(await main(['cases', 'frob'], t.io)).toBe(2);
    expect(t.stderr()).toContain('unknown subcommand "frob"');
  });
});
