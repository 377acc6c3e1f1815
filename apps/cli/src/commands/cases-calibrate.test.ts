import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCases } from '@crucibleforge/cases/internal';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../main';
import { memoryIO } from '@crucibleforge/testkit';

const CASE = `# kept comment
id: math-small-sum
title: A small sum
category: math
difficulty: easy
why_hard: nothing, it is a tiny sum
prompt: |
  What is 2 + 3? End with "Answer: <integer>".
max_tokens: 256
grader:
  type: number
reference:
  answer: 5
`;

let tmp = '';
afterEach(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});
async function setup(replies: string[]): Promise<{ cases: string; attempts: string }> {
  tmp = await mkdtemp(join(tmpdir(), 'cf-cli-calibrate-'));
  const cases = join(tmp, 'cases');
  const attempts = join(tmp, 'attempts');
  await mkdir(join(cases, 'math'), { recursive: true });
  await mkdir(attempts);
  await writeFile(join(cases, 'math', 'math-small-sum.yaml'), CASE);
  await Promise.all(replies.map((r, i) => writeFile(join(attempts, `${i + 1}.md`), r)));
  return { cases, attempts };
}

describe('crucibleforge cases calibrate', () => {
  it('grades every attempt and prints the label the evidence supports, changing nothing without --write', async () => {
    const { cases, attempts } = await setup(['2 + 3 = 5.\nAnswer: 5', 'Answer: 6', 'It is 5, so\n**Answer:** 5']);
    const t = memoryIO({ cwd: tmp });
    expect(await main(['cases', 'calibrate', 'math-small-sum', '--attempts', attempts, '--cases', cases], t.io)).toBe(0);
    expect(t.stdout()).toMatch(/PASS 1\.md.*\nFAIL 2\.md.*\nPASS 3\.md/);
    expect(t.stdout()).toContain('math-small-sum: 2 of 3 blind attempts passed: the evidence says medium (labelled easy)');
    expect(await readFile(join(cases, 'math', 'math-small-sum.yaml'), 'utf8')).toBe(CASE);
  });
  it('--write records the calibration and relabels; the file still loads clean', async () => {
    const { cases, attempts } = await setup(['Answer: 7', 'Answer: 6', 'Answer: 5']);
    const t = memoryIO({ cwd: tmp });
    const args = ['cases', 'calibrate', 'math-small-sum', '--attempts', attempts, '--cases', cases, '--write', '--solver', 'frontier chat model, blind, no tools', '--date', '2026-12-01'];
    expect(await main(args, t.io)).toBe(0);
    const text = await readFile(join(cases, 'math', 'math-small-sum.yaml'), 'utf8');
    expect(text).toContain('# kept comment');
    const loaded = await loadCases(cases);
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(loaded.cases[0]!.def).toMatchObject({ difficulty: 'hard', calibration: { attempts: 3, passes: 1, date: '2026-12-01', solver: 'frontier chat model, blind, no tools' } });
  });
  it('refuses to record too few attempts, none passed without a review, or no solver (exit 2, file untouched)', async () => {
    const { cases, attempts } = await setup(['Answer: 7', 'Answer: 6', 'Answer: 4']);
    const write = ['cases', 'calibrate', 'math-small-sum', '--attempts', attempts, '--cases', cases, '--write'];
    const noSolver = memoryIO({ cwd: tmp });
    expect(await main(write, noSolver.io)).toBe(2);
    expect(noSolver.stderr()).toContain('--solver');
    const noReview = memoryIO({ cwd: tmp });
    expect(await main([...write, '--solver', 'blind'], noReview.io)).toBe(2);
    expect(noReview.stderr()).toContain('--review');
    const missing = memoryIO({ cwd: tmp });
    expect(await main(['cases', 'calibrate', 'math-small-sum', '--attempts', join(tmp, 'nope'), '--cases', cases], missing.io)).toBe(2);
    expect(missing.stderr()).toContain(join(tmp, 'nope'));
    expect(await readFile(join(cases, 'math', 'math-small-sum.yaml'), 'utf8')).toBe(CASE);
  });
  it('--json prints one JSON document on stdout (the notes go to stderr); untrusted names are shown inert', async () => {
    const { cases, attempts } = await setup(['Answer: 5', 'Answer: 6', 'Answer: 5']);
    await writeFile(join(attempts, '4\u001b]0;pwned\u0007.md'), 'Answer: 5');
    const json = memoryIO({ cwd: tmp });
    const args = ['cases', 'calibrate', 'math-small-sum', '--attempts', attempts, '--cases', cases];
    expect(await main([...args, '--json', '--write', '--solver', 'blind', '--date', '2026-12-01'], json.io)).toBe(0);
    const doc = JSON.parse(json.stdout()) as { id: string; calibration: { attempts: number; passes: number }; verdicts: { file: string }[] };
    expect(doc).toMatchObject({ id: 'math-small-sum', calibration: { attempts: 4, passes: 3 } });
    expect(json.stderr()).toContain('recorded in ');
    const text = memoryIO({ cwd: tmp });
    expect(await main(args, text.io)).toBe(0);
    expect(text.stdout()).not.toMatch(/[\u001b\u0007]/);
    expect(text.stdout()).toContain('PASS 4␛]0;pwned␇.md');
  });
  it('a mistyped subcommand exits 2 with a suggestion', async () => {
    const t = memoryIO({ cwd: tmpdir() });
    expect(await main(['cases', 'calibrat'], t.io)).toBe(2);
    expect(t.stderr()).toContain('unknown subcommand "calibrat" (did you mean "calibrate"?)');
  });
});
