import { describe, expect, it } from 'vitest';
import { gradeAssignments, gradeChoice, gradeExact, gradeNumber } from './answer';

const num = (content: string, expected: string | number = 978, tolerance?: number) =>
  gradeNumber({ type: 'number', ...(tolerance === undefined ? {} : { tolerance }) }, expected, content);

describe('number grader', () => {
  it('reads the value right after the label, not the last number on the line', () => {
    expect(num('so...\nAnswer: 978 (mod 1000)')).toMatchObject({ status: 'pass' });
    expect(num('Answer: x = 978')).toMatchObject({ status: 'pass' });
    expect(num('**Answer:** $978$.')).toMatchObject({ status: 'pass' });
  });
  it('accepts separators and equivalent fractions, compares exactly', () => {
    expect(num('Answer: 1,234,567', 1234567).status).toBe('pass');
    expect(num('Answer: 3/4', '0.75').status).toBe('pass');
    expect(num('Answer: 0.333', '1/3').status).toBe('fail');
    expect(num('Answer: 0.333', '1/3', 0.001).status).toBe('pass');
  });
  it('the last final answer wins; a hedge inside it fails', () => {
    expect(num('Answer: 12\n...\nAnswer: 15', 12)).toMatchObject({ status: 'fail', reason: 'expected 12, got 15' });
    expect(num('Answer: 15\n...\nAnswer: 12', 12).status).toBe('pass');
    expect(num('Answer: 12 or 15', 12).reason).toBe('two values in the final answer: 12 and 15');
  });
  it('documented fallbacks: \\boxed{}, then a bare number; otherwise no label', () => {
    expect(num('thus \\boxed{978}').status).toBe('pass');
    expect(num(' 978 ').status).toBe('pass');
    expect(num('I think it is 978 or so\nmaybe')).toMatchObject({ status: 'fail', reason: 'no "Answer:" line' });
    expect(gradeNumber({ type: 'number' }, 5, 'thinking about 5', 'length').reason).toBe('TRUNCATED: cut off before an "Answer:" line');
  });
  it('ignores remarks and units', () => {
    expect(num('Answer: 42 apples', 42).status).toBe('pass');
    expect(num('Answer: 2^10 = 1024', 1024).status).toBe('pass');
  });
});

describe('exact, choice, assignments', () => {
  it('exact normalises punctuation and case', () => {
    expect(gradeExact({ type: 'exact' }, 'Blue House', 'Answer: **blue-house.**').status).toBe('pass');
    expect(gradeExact({ type: 'exact', alternatives: ['azure house'] }, 'Blue House', 'Answer: Azure House').status).toBe('pass');
    expect(gradeExact({ type: 'exact' }, 'blue', 'Answer: blue\nAnswer: red').reason).toBe('expected "blue", got "red"');
  });
  it('a list reads a final "and" in a comma list as a comma; order matters', () => {
    const list = { type: 'exact' as const, kind: 'list' as const };
    for (const reply of ['Answer: R, S and T', 'Answer: R, S, and T', 'Answer: R, S AND T.', 'Answer: R and S and T'])
      expect(gradeExact(list, 'R, S, T', reply), reply).toMatchObject({ status: 'pass' });
    expect(gradeExact(list, 'R, S and T', 'Answer: R, S, T').status).toBe('pass');
    expect(gradeExact(list, 'R, S, T', 'Answer: R, S and U').status).toBe('fail');
    expect(gradeExact(list, 'R, S, T', 'Answer: R, T and S').status).toBe('fail');
    expect(gradeExact({ type: 'exact' }, 'Salt and Pepper', 'Answer: Salt, Pepper').status).toBe('fail');
  });
  it('choice needs exactly one option', () => {
    const g = { type: 'choice' as const, options: ['A', 'B', 'C', 'D'] };
    expect(gradeChoice(g, 'B', 'Answer: (B)').status).toBe('pass');
    expect(gradeChoice(g, 'B', 'Answer: B or C').reason).toBe('several options given: B, C');
    expect(gradeChoice(g, 'B', 'Answer: A').reason).toBe('expected B, chose A');
    expect(gradeChoice(g, 'B', 'Answer: a book').reason).toBe('no option (A, B, C, D) in the answer');
  });
  it('assignments grade per element from clauses', () => {
    const want = { Ada: 'cat', Bo: 'dog', Cy: 'fish' };
    const g = { type: 'assignments' as const };
    expect(gradeAssignments(g, want, 'Reasoning: Ada cannot have the dog...\nAnswer: Ada has the cat, Bo has the dog and Cy owns the fish.').status).toBe('pass');
    const r = gradeAssignments(g, want, 'Answer:\n- Ada: cat\n- Bo: fish\n- Cy: dog');
    expect(r).toMatchObject({ status: 'fail', reason: '1/3 right; Bo: expected dog, got fish' });
    expect(r.score).toBeCloseTo(1 / 3);
  });
});
