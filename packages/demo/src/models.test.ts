import { grade, type ConcreteCase } from '@crucibleforge/cases';
import { simTokenize } from '@crucibleforge/sim-endpoint';
import { describe, expect, it } from 'vitest';
import { createCaseMatcher } from './match';
import { createDemoModels } from './models';
import { planFaults } from './faults';
import { compareWithReference } from './facts';
import { FILLER_ANSWER } from './answers';
import { ask, converse, fixtureCases, liveCases, view } from './test-support';

const byId = (cases: ConcreteCase[], id: string) => {
  const c = cases.find((x) => x.id === id);
  if (!c) throw new Error(`no case ${id}`);
  return c;
};

describe('matching a request to its case', () => {
  it('uses the first user message, ignores /no_think, tells cases apart by system prompt, and gives null for anything else', async () => {
    const cases = await fixtureCases();
    const twin = { ...byId(cases, 'math-sum-small'), id: 'math-sum-twin', system: 'Be terse.' };
    const match = createCaseMatcher([...cases, twin]);
    const turn = byId(cases, 'math-sum-small').turns[0]!;
    expect(match([{ role: 'user', content: turn }])?.id).toBe('math-sum-small');
    expect(match([{ role: 'user', content: `${turn} /no_think` }])?.id).toBe('math-sum-small');
    expect(match([{ role: 'system', content: 'Be terse.' }, { role: 'user', content: turn }])?.id).toBe('math-sum-twin');
    expect(match([{ role: 'user', content: '[1a2b3c4d] Write a long story about a lighthouse.' }])).toBeNull();
    expect(match([{ role: 'system', content: 'only a system prompt' }])).toBeNull();
  });
});

describe('the strong model', () => {
  it('passes every objectively graded case of the live set that needs no sandbox, through the whole conversation', { timeout: 30_000 }, async () => {
    const cases = (await liveCases()).filter((c) => c.grader.type !== 'code' && c.grader.type !== 'judge');
    expect(cases.length).toBeGreaterThanOrEqual(5);
    const { strong } = await createDemoModels({ cases, faults: [] });
    for (const c of cases) {
      const outcome = await grade(c, await converse(strong, c));
      expect({ id: c.id, ...outcome }).toMatchObject({ id: c.id, status: 'pass' });
    }
  });

  it('answers code with the reference solution in a fence, numbers with Answer: N, and reasons unless told not to', async () => {
    const cases = await fixtureCases();
    const { strong } = await createDemoModels({ cases, faults: [] });
    const code = await ask(strong, view([{ role: 'user', content: byId(cases, 'coding-triple-it').turns[0]! }]));
    expect(code.content).toBe('```python\ndef triple(x):\n    return 3 * x\n```');
    expect(code.reasoning).toMatch(/Triple a number/);
    const num = await ask(strong, view([{ role: 'user', content: byId(cases, 'math-sum-small').turns[0]! }], { reasoning_off: true }));
    expect(num).toEqual({ content: 'Answer: 42' });
    const filler = await ask(strong, view([{ role: 'user', content: '[00000000] Write a long story about a lighthouse.' }]));
    expect(filler.content).toBe(FILLER_ANSWER);
  });

  it('answers judged cases with the reference prose, which the simulated judge accepts', async () => {
    const cases = (await liveCases()).filter((c) => c.grader.type === 'judge');
    const { strong } = await createDemoModels({ cases, faults: [] });
    for (const c of cases) {
      const a = await ask(strong, view([...(c.system ? [{ role: 'system' as const, content: c.system }] : []), { role: 'user', content: c.turns[0]! }]));
      const decision = compareWithReference({ reference: String(c.reference.answer), facts: c.reference.facts ?? [], answer: a.content ?? '' });
      expect({ id: c.id, ...decision }).toMatchObject({ id: c.id, correct: true });
    }
  });
});

describe('the faulty model', () => {
  it('plans one fault of each kind over the fixtures, deterministically', async () => {
    const cases = await fixtureCases();
    const plan = await planFaults(cases);
    expect(plan.map((f) => [f.case_id, f.kind])).toEqual([
      ['coding-double-it', 'wrong-code'],
      ['tooluse-two-lookups', 'missed-tool-call'],
      ['injection-note-in-page', 'followed-injection'],
      ['instruct-three-bullets', 'wrong-reply'],
      ['math-sum-small', 'overflow'],
      ['prose-boiling-point', 'missing-fact'],
    ]);
    expect(plan.find((f) => f.kind === 'overflow')?.expect_fail).toBe(false);
    expect(await planFaults(cases)).toEqual(plan);
  });

  it('fails exactly the planned cases, for the planned reasons', async () => {
    const cases = await fixtureCases();
    const { faulty, faults } = await createDemoModels({ cases });
    const outcome = async (id: string) => grade(byId(cases, id), await converse(faulty, byId(cases, id), { reasoning_off: true }));
    expect(await outcome('tooluse-two-lookups')).toMatchObject({ status: 'fail', reason: '1 call in one turn, expected 2' });
    expect(await outcome('injection-note-in-page')).toMatchObject({ status: 'fail', reason: expect.stringMatching(/PWNED|tide/) });
    expect(await outcome('instruct-three-bullets')).toMatchObject({ status: 'fail', reason: expect.stringMatching(/2 bullets/) });
    // The wrong code is the non-slow wrong solution (the sandbox run is the CLI's end-to-end test).
    const code = await ask(faulty, view([{ role: 'user', content: byId(cases, 'coding-double-it').turns[0]! }]));
    expect(code.content).toContain('return x + 2');
    // Cases without a fault are answered like the strong model does.
    expect((await ask(faulty, view([{ role: 'user', content: byId(cases, 'coding-triple-it').turns[0]! }]))).content).toContain('return 3 * x');
    const prose = byId(cases, 'prose-boiling-point');
    const wrong = await ask(faulty, view([{ role: 'user', content: prose.turns[0]! }]));
    expect(compareWithReference({ reference: String(prose.reference.answer), facts: prose.reference.facts ?? [], answer: wrong.content ?? '' }).correct).toBe(false);
    expect(faults.filter((f) => f.expect_fail)).toHaveLength(5);
  });

  it('overflows with reasoning on (more reasoning tokens than the budget, no content needed) and answers with reasoning off', async () => {
    const cases = await fixtureCases();
    const { faulty } = await createDemoModels({ cases });
    const messages = [{ role: 'user' as const, content: byId(cases, 'math-sum-small').turns[0]! }];
    const on = await ask(faulty, view(messages, { max_tokens: 1200 }));
    expect(simTokenize(on.reasoning ?? '').length).toBeGreaterThan(1200);
    const off = await ask(faulty, view(messages, { max_tokens: 300, reasoning_off: true }));
    expect(off).toEqual({ content: 'Answer: 42' });
    const other = await ask(faulty, view([{ role: 'user', content: byId(cases, 'math-sum-large').turns[0]! }], { max_tokens: 3600 }));
    expect(simTokenize(other.reasoning ?? '').length).toBeLessThan(100);
  });
});
