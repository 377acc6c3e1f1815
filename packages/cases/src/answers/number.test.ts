import { describe, expect, it } from 'vitest';
import { formatRational } from '../text/numbers';
import { explicitAnswers, finalAnswer } from './final';
import { extractAnswer } from './index';
import { extractNumber } from './number';
import { parseNumberWords } from './number-words';

const num = (reply: string) => {
  const r = extractAnswer({ kind: 'number' }, reply);
  return r.ok ? r.value : `FAIL: ${r.reason}`;
};

describe('final answer: conventions models use, the last explicit one wins', () => {
  it('reads labels in their usual dress', () => {
    for (const reply of [
      'Answer: 327',
      '**Answer:** 327',
      '**Answer: 327**',
      '**Answer**: 327',
      'Final answer: 327',
      '### Final Answer\n\n327',
      '**Final answer**\n327',
      'answer = 327',
      '> Answer: 327',
      '- Answer: 327',
      'The grid has 42 paths... so the total is\n\n\\boxed{327}',
      'Answer: $\\boxed{327}$',
      'The final answer is 327.',
      'Working...\nSo the answer is **327**.',
      'Lots of reasoning with 12 and 15.\n\nThe total is **327**.',
      '327',
      '  327.  ',
    ]) {
      expect(num(reply), reply).toBe('327');
    }
  });
  it('a self-correction: the last explicit answer replaces the earlier one', () => {
    expect(num('Answer: 163\n\nWait — I forgot the wrap-around move. On reflection, Answer: 327')).toBe('327');
    expect(num('Answer: 163 … on reflection, Answer: 327')).toBe('327');
    expect(num('Answer: 163\n\nChecking again with the recurrence: \\boxed{327}')).toBe('327');
    expect(explicitAnswers('Answer: 838\nOn second thought, Answer: 839')).toEqual(['838', '839']);
  });
  it('a closing offer after the answer does not move it', () => {
    expect(num('Answer: 327\n\nLet me know if you would like the full derivation — happy to show how the answer changes for other grids!')).toBe('327');
  });
  it('an echo of the required format before the real answer is overridden', () => {
    expect(num('I must end with `Answer: <integer>`. Counting: ...\n\nAnswer: 327')).toBe('327');
  });
  it('says when there is no final answer', () => {
    expect(num('I think it is 978 or so\nbut not sure')).toBe('FAIL: no "Answer:" line');
    expect(finalAnswer('', 'Answer')).toBeNull();
  });
});

describe('number extractor', () => {
  it('thousands separators: comma, underscore, thin space, plain space groups, LaTeX spacing', () => {
    for (const v of ['141,566,219', '141_566_219', '141\u2009566\u2009219', '141 566 219', '141\u00a0566\u00a0219', '$141\\,566\\,219$', '141{,}566{,}219']) {
      const r = extractNumber(v);
      expect(r.ok && formatRational(r.value), v).toBe('141566219');
    }
  });
  it('units and a short parenthetical after the value are ignored, nested parentheses included', () => {
    expect(num('Answer: 327 (Q(6) = 2R(5)+1 = 2·163+1)')).toBe('327');
    expect(num('Answer: 327 routes')).toBe('327');
    expect(num('Answer: 17 copper marks.')).toBe('17');
    expect(num('Answer: 978 (mod 1000)')).toBe('978');
    expect(num('**Answer: 327** (that is 2·163 + 1)')).toBe('327');
    expect(num('Answer: €2,021.00')).toBe('2021');
  });
  it('equations: the value after the last =, an approximation skipped; remarks after the value cut', () => {
    expect(num('Answer: x = 5')).toBe('5');
    expect(num('Answer: m + n = 23 + 432 = 455')).toBe('455');
    expect(num('Answer: 1/3 ≈ 0.333')).toBe('1/3');
    expect(num('Answer: 455, because m = 23 and n = 432')).toBe('455');
    expect(num('Answer: 455; that is m + n')).toBe('455');
    expect(num('Answer: 455 — the sum of numerator and denominator')).toBe('455');
  });
  it('fractions, decimals, negatives, LaTeX fractions, number words', () => {
    expect(num('Answer: 3/4')).toBe('3/4');
    expect(num('Answer: \\frac{3}{4}')).toBe('3/4');
    expect(num('Answer: $\\dfrac{3}{4}$')).toBe('3/4');
    expect(num('Answer: 0.75')).toBe('3/4');
    expect(num('Answer: −12')).toBe('-12');
    expect(num('Answer: twelve')).toBe('12');
    expect(parseNumberWords('a hundred and fifty')).toBe(150);
    expect(parseNumberWords('twenty-five')).toBe(25);
    expect(parseNumberWords('fifteen and a half')).toBe(15.5);
    expect(parseNumberWords('two three')).toBeNull();
  });
  it('two different values in the final answer itself are a hedge', () => {
    expect(num('Answer: 12 or 15')).toMatch(/^FAIL: two values in the final answer: 12 and 15/);
    expect(num('Answer: 10-12')).toMatch(/^FAIL: two values/);
    expect(num('Answer: 12, 15')).toMatch(/^FAIL: two values/);
    expect(num('Answer: 12 (or 15)')).toBe('12');
    expect(num('Answer: 12 = 12.0')).toBe('12');
  });
  it('a grouped number is not split: 12 345 is one value, 3 5 is two', () => {
    expect(num('Answer: 12 345')).toBe('12345');
    expect(num('Answer: 3 5')).toMatch(/^FAIL: two values/);
  });
});
