import { describe, expect, it } from 'vitest';
import { difficultyFromEvidence } from './difficulty';
import { parseCaseFile } from './loader';
import { caseRevision } from './revision';

const BASE = `id: math-small-sum
title: A small sum
category: math
prompt: |
  What is 2 + 3? End with "Answer: <integer>".
max_tokens: 256
grader:
  type: number
reference:
  answer: 5
`;
const revision = caseRevision(parseCaseFile(`${BASE}difficulty: easy\n`, 'm.yaml').cases[0]!.def);

function load(difficulty: string, calibration?: string, extra = '') {
  const text = `${BASE}difficulty: ${difficulty}\nwhy_hard: a long careful derivation\n${extra}${calibration ? `calibration:\n${calibration}` : ''}`;
  return parseCaseFile(text, 'm.yaml');
}
const cal = (attempts: number, passes: number, more = '') =>
  `  attempts: ${attempts}\n  passes: ${passes}\n  solver: frontier chat model, blind, no tools\n  date: 2026-12-01\n  revision: ${revision}\n${more}`;

describe('difficultyFromEvidence', () => {
  it.each([
    [3, 0, 'hard'],
    [3, 1, 'hard'],
    [3, 2, 'medium'],
    [3, 3, 'easy'],
    [6, 2, 'hard'],
    [6, 3, 'medium'],
    [6, 4, 'medium'],
    [6, 5, 'easy'],
    [5, 1, 'hard'],
    [5, 2, 'medium'],
  ] as const)('%i attempts, %i passes → %s', (attempts, passes, want) => {
    expect(difficultyFromEvidence({ attempts, passes })).toBe(want);
  });
});

describe('a case label follows its blind calibration', () => {
  it('accepts a label that matches the evidence', () => {
    expect(load('hard', cal(3, 1)).problems).toEqual([]);
    expect(load('medium', cal(3, 2)).problems).toEqual([]);
    expect(load('easy', cal(3, 3)).problems).toEqual([]);
  });
  it('refuses a label the evidence does not support, naming the counts', () => {
    const { problems } = load('hard', cal(3, 2));
    expect(problems.map((p) => p.message).join('\n')).toMatch(/labelled hard, but 2 of 3 blind attempts passed: the evidence says medium/);
    expect(load('easy', cal(3, 1)).problems.length).toBe(1);
  });
  it('needs a hand re-check note when every attempt failed', () => {
    expect(load('hard', cal(3, 0)).problems.map((p) => p.message).join('\n')).toMatch(/no blind attempt passed.*review/);
    expect(load('hard', cal(3, 0, '  review: reference re-derived by hand; one reading of every clue\n')).problems).toEqual([]);
  });
  it('marks evidence gathered on another revision of the question as stale', () => {
    const question = BASE.replace('What is 2 + 3?', 'What is 2 + 4?').replace('answer: 5', 'answer: 6');
    const edited = parseCaseFile(`${question}difficulty: hard\nwhy_hard: a long careful derivation\ncalibration:\n${cal(3, 1)}`, 'm.yaml');
    expect(edited.problems.map((p) => p.message).join('\n')).toMatch(/the attempts answered revision [0-9a-f]{12}, the question is now [0-9a-f]{12}: calibrate again/);
  });
  it('refuses more passes than attempts and fewer than three attempts', () => {
    expect(load('easy', cal(3, 4)).problems.length).toBeGreaterThan(0);
    expect(load('hard', cal(2, 0, '  review: checked by hand, one reading\n')).problems.length).toBeGreaterThan(0);
  });
  it('keeps a candidate-hard case at most medium until it is calibrated', () => {
    expect(load('hard', undefined, 'tags: [candidate-hard]\n').problems.map((p) => p.message).join('\n')).toMatch(/only with blind calibration evidence/);
    expect(load('medium', undefined, 'tags: [candidate-hard]\n').problems).toEqual([]);
  });
});
