import { describe, expect, it } from 'vitest';
import { withCalibration } from './calibration-file';
import { parseCaseFile } from './loader';
import { caseRevision } from './revision';

const TEXT = `# A comment the edit keeps
id: math-small-sum
title: A small sum
category: math
difficulty: hard
why_hard: a long careful derivation of nothing much
prompt: |
  What is 2 + 3? End with "Answer: <integer>".
max_tokens: 256 # budget
grader:
  type: number
reference:
  answer: 5
`;

describe('withCalibration', () => {
  const revision = caseRevision(parseCaseFile(TEXT, 'm.yaml').cases[0]!.def);
  const cal = { attempts: 3, passes: 2, solver: 'frontier chat model, blind, no tools', date: '2026-12-01', revision };

  it('records the evidence after why_hard, relabels from it and keeps comments', () => {
    const out = withCalibration(TEXT, 'math-small-sum', cal)!;
    expect(out).toContain('# A comment the edit keeps');
    expect(out).toContain('max_tokens: 256 # budget');
    expect(out).toMatch(/difficulty: medium\nwhy_hard: .*\ncalibration:\n {2}attempts: 3\n {2}passes: 2\n/);
    const parsed = parseCaseFile(out, 'm.yaml');
    expect(parsed.problems).toEqual([]);
    expect(parsed.cases[0]!.def.calibration).toEqual(cal);
    expect(parsed.cases[0]!.revision).toBe(revision);
  });
  it('replaces an earlier calibration', () => {
    const once = withCalibration(TEXT, 'math-small-sum', cal)!;
    const twice = withCalibration(once, 'math-small-sum', { ...cal, attempts: 6, passes: 1 })!;
    expect(twice.match(/calibration:/g)).toHaveLength(1);
    expect(parseCaseFile(twice, 'm.yaml').cases[0]!.def).toMatchObject({ difficulty: 'hard', calibration: { attempts: 6, passes: 1 } });
  });
  it('returns null for an id the file does not hold', () => {
    expect(withCalibration(TEXT, 'math-other', cal)).toBeNull();
  });
});

describe('withCalibration keeps the file as written', () => {
  it('changes only the difficulty line and the calibration block (folded text and flow lists stay)', () => {
    const text = `id: math-folded\ntitle: Folded\ncategory: math\ndifficulty: medium\ntags: [ a, b ]\nwhy_hard: >-\n  a long careful\n  derivation of nothing\nparams:\n  n: { choice: [9] }\nprompt: What is {{n}}? End with "Answer: <integer>".\nmax_tokens: 256\ngrader:\n  type: number\nreference:\n  answer: 9\n`;
    const cal = { attempts: 3, passes: 0, solver: 'blind solver', date: '2026-12-01', revision: '0123456789ab', review: 'reference checked by hand' };
    const out = withCalibration(text, 'math-folded', cal)!;
    const removed = text.split('\n').filter((l) => !out.split('\n').includes(l));
    expect(removed).toEqual(['difficulty: medium']);
    expect(out).toContain('why_hard: >-\n  a long careful\n  derivation of nothing\ncalibration:\n  attempts: 3\n');
    expect(out).toContain('  n: { choice: [9] }');
  });
  it('edits the right document of a multi-document file', () => {
    const one = `id: math-one\ntitle: One\ncategory: math\ndifficulty: easy\nprompt: q\nmax_tokens: 64\ngrader: { type: number }\nreference: { answer: 1 }\n`;
    const two = one.replaceAll('one', 'two').replace('One', 'Two');
    const out = withCalibration(`${one}---\n${two}`, 'math-two', { attempts: 3, passes: 3, solver: 'blind solver', date: '2026-12-01', revision: '0123456789ab' })!;
    expect(out.startsWith(one)).toBe(true);
    expect(out).toMatch(/---\nid: math-two[\s\S]*difficulty: easy\n[\s\S]*calibration:\n {2}attempts: 3/);
  });
});
