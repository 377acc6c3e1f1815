import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCaseSet } from '@crucibleforge/cases';
import { createSandbox } from '@crucibleforge/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../main';
import { memoryIO } from '@crucibleforge/testkit';

const REAL_CASES = fileURLToPath(new URL('../../../../cases', import.meta.url));
const TOOL = `id: tooluse-refund
title: One refund
category: tooluse
difficulty: easy
prompt: Refund invoice 50.
max_tokens: 64
tools:
  - { name: refund, parameters: { type: object, properties: { invoice: { type: integer } }, required: [invoice] } }
grader: { type: tool_calls, calls: [{ name: refund, args: { invoice: 50 } }] }
reference: { calls: [[{ name: refund, arguments: { invoice: 50 } }]] }
`;

let tmp = '';
let toolDir = '';
const file = async (name: string, text: string) => {
  const path = join(tmp, name);
  await writeFile(path, text);
  return path;
};
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'cf-cli-grade-'));
  toolDir = join(tmp, 'cases');
  await mkdir(join(toolDir, 'tooluse'), { recursive: true });
  await writeFile(join(toolDir, 'tooluse', 'tooluse-refund.yaml'), TOOL);
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('crucibleforge cases grade', () => {
  it('grades a tool reply from a stored row (exit 0) and a lookalike (exit 1, --json)', async () => {
    const good = await file('good.json', JSON.stringify({ content: '', tool_calls_by_turn: [[{ id: 'c', name: 'refund', arguments: '{"invoice": 50}' }]] }));
    const t = memoryIO({ cwd: tmp });
    expect(await main(['cases', 'grade', 'tooluse-refund', '--reply', good, '--cases', toolDir], t.io)).toBe(0);
    expect(t.stdout()).toMatch(/^PASS tooluse-refund: /);
    const bad = await file('bad.json', JSON.stringify({ content: '', tool_calls_by_turn: [[{ id: 'c', name: 'refund', arguments: '{"invoice": 150}' }]] }));
    const j = memoryIO({ cwd: tmp });
    expect(await main(['cases', 'grade', 'tooluse-refund', '--reply', bad, '--cases', toolDir, '--json'], j.io)).toBe(1);
    const out = JSON.parse(j.stdout()) as { id: string; status: string; reason: string };
    expect(out).toMatchObject({ id: 'tooluse-refund', status: 'fail' });
    expect(out.reason.length).toBeGreaterThan(0);
  });
  it('usage errors exit 2: no --reply, a missing file, an unknown id', async () => {
    const a = memoryIO({ cwd: tmp });
    expect(await main(['cases', 'grade', 'tooluse-refund', '--cases', toolDir], a.io)).toBe(2);
    expect(a.stderr()).toContain('needs --reply FILE');
    const b = memoryIO({ cwd: tmp });
    expect(await main(['cases', 'grade', 'tooluse-refund', '--reply', 'nope.txt', '--cases', toolDir], b.io)).toBe(2);
    expect(b.stderr()).toContain(`--reply ${join(tmp, 'nope.txt')}: no such file`);
    const reply = await file('r.txt', 'x');
    const c = memoryIO({ cwd: tmp });
    expect(await main(['cases', 'grade', 'tooluse-refundd', '--reply', reply, '--cases', toolDir], c.io)).toBe(2);
    expect(c.stderr()).toContain('unknown case id "tooluse-refundd" (closest: tooluse-refund');
  });
  it('grades a real coding case in the sandbox like a run: the reference passes, a stub fails', async (ctx) => {
    if (!(await createSandbox({ poolSize: 1 }).then(() => true, () => false))) ctx.skip('no sandbox');
    const loaded = await loadCaseSet(REAL_CASES);
    const def = loaded.cases.find((c) => c.def.id === 'coding-merge-bookings')!.def;
    const ref = await file('ref.md', `Here:\n\n\`\`\`python\n${def.reference.solution}\n\`\`\`\n`);
    const t = memoryIO({ cwd: tmp });
    expect(await main(['cases', 'grade', 'coding-merge-bookings', '--reply', ref, '--cases', REAL_CASES, '--json'], t.io)).toBe(0);
    expect(JSON.parse(t.stdout())).toMatchObject({ id: 'coding-merge-bookings', seed: null, status: 'pass', reason: expect.stringMatching(/^all \d+ tests passed$/) });
    const stub = await file('stub.md', '```python\nimport sys\nsys.exit = lambda *a: None\ndef merge_bookings(x):\n    return []\n```\n');
    const f = memoryIO({ cwd: tmp });
    expect(await main(['cases', 'grade', 'coding-merge-bookings', '--reply', stub, '--cases', REAL_CASES], f.io)).toBe(1);
    expect(f.stdout()).toMatch(/^FAIL coding-merge-bookings: test \d+ .*failed: expected/);
  }, 60_000);
});

describe('crucibleforge cases show', () => {
  it('prints what the model is sent and nothing of the reference, the grader or verify', async () => {
    const t = memoryIO({ cwd: tmp });
    expect(await main(['cases', 'show', 'coding-merge-bookings', '--cases', REAL_CASES, '--json'], t.io)).toBe(0);
    const shown = JSON.parse(t.stdout()) as { messages: { role: string; content: string }[]; tools: unknown[]; turns: string[]; max_tokens: number };
    expect(Object.keys(shown).sort()).toEqual(['max_tokens', 'messages', 'tools', 'turns']);
    expect(shown.messages.at(-1)).toEqual({ role: 'user', content: shown.turns[0] });
    const yaml = await readFile(join(REAL_CASES, 'coding', 'coding-merge-bookings.yaml'), 'utf8');
    const loaded = await loadCaseSet(REAL_CASES);
    const def = loaded.cases.find((c) => c.def.id === 'coding-merge-bookings')!.def;
    expect(yaml).toContain(def.reference.solution!.split('\n')[1]!);
    expect(t.stdout()).not.toContain(def.reference.solution!.split('\n')[1]!.trim());
    expect(t.stdout()).not.toContain('wrong_solutions');
    const text = memoryIO({ cwd: tmp });
    expect(await main(['cases', 'show', 'tooluse-refund', '--cases', toolDir], text.io)).toBe(0);
    expect(text.stdout()).toContain('--- user, turn 1 of 1\nRefund invoice 50.');
    expect(text.stdout()).toContain('"name": "refund"');
    expect(text.stdout()).not.toContain('150');
  });
});
