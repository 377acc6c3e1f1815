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
