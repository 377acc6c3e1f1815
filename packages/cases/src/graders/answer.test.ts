import { describe, expect, it } from 'vitest';
import { answerNumber, gradeAssignments, gradeChoice, gradeExact, gradeNumber } from './answer';

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
  it('fails two different final answers and hedged answers', () => {
    expect(num('Answer: 12\n...\nAnswer: 15', 12)).toMatchObject({ status: 'fail', reason: 'two different final answers: 12 and 15' });
    expect(num('Answer: 12\nAnswer: 12', 12).status).toBe('pass');
    expect(num('Answer: 12 or 15', 12).reason).toMatch(/^more than one value/);
  });
  it('documented fallbacks: \\boxed{}, then a bare number; otherwise no label', () => {
    expect(num('thus \\boxed{978}').status).toBe('pass');
    expect(num(' 978 ').status).toBe('pass');
    expect(num('I think it is 978 or so')).toMatchObject({ status: 'fail', reason: 'no "Answer:" line' });
    expect(gradeNumber({ type: 'number' }, 5, 'thinking about 5', 'length').reason).toBe('TRUNCATED: cut off before an "Answer:" line');
  });
  it('answerNumber ignores remarks and units', () => {
    expect(answerNumber('42 apples').value?.num).toBe(42n);
    expect(answerNumber('2^10 = 1024').value?.num).toBe(1024n);
  });
});

describe('exact, choice, assignments', () => {
  it('exact normalises punctuation and case', () => {
    expect(gradeExact({ type: 'exact' }, 'Blue House', 'Answer: **blue-house.**').status).toBe('pass');
    expect(gradeExact({ type: 'exact', alternatives: ['azure house'] }, 'Blue House', 'Answer: Azure House').status).toBe('pass');
    expect(gradeExact({ type: 'exact' }, 'blue', 'Answer: red\nAnswer: blue').reason).toBe('two different final answers: "red" and "blue"');
  });
  it('exact reads a final "and" in a comma list as a comma, and nothing else', () => {
    for (const reply of ['Answer: R, S and T', 'Answer: R, S, and T', 'Answer: R, S AND T.'])
      expect(gradeExact({ type: 'exact' }, 'R, S, T', reply), reply).toMatchObject({ status: 'pass' });
    expect(gradeExact({ type: 'exact' }, 'R, S and T', 'Answer: R, S, T').status).toBe('pass');
    expect(gradeExact({ type: 'exact' }, 'R, S, T', 'Answer: R, S and U').status).toBe('fail');
    expect(gradeExact({ type: 'exact' }, 'R, S, T', 'Answer: R and S and T').status).toBe('fail');
    expect(gradeExact({ type: 'exact' }, 'R, S, T', 'Answer: R, T and S').status).toBe('fail');
    expect(gradeExact({ type: 'exact' }, 'Salt and Pepper', 'Answer: Salt, Pepper').status).toBe('fail');
  });
  it('choice needs exactly one option', () => {
    const g = { type: 'choice' as const, options: ['A', 'B', 'C', 'D'] };
    expect(gradeChoice(g, 'B', 'Answer: (B)').status).toBe('pass');
    expect(gradeChoice(g, 'B', 'Answer: B or C').reason).toBe('several options given: B, C');
    expect(gradeChoice(g, 'B', 'Answer: A').reason).toBe('expected B, chose A');
    expect(gradeChoice(g, 'B', 'Answer: a book').reason).toBe('no option (A, B, C, D) after "Answer:"');
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
