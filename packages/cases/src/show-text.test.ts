import { describe, expect, it } from 'vitest';
import type { MaterializedCase } from './materialize';
import { calibrationText, caseShowText, gradeOutcomeText } from './show-text';

describe('cases show / grade text', () => {
  it('shows the system, every turn, the tools and max_tokens; the seed only for a seeded case', () => {
    const c = { id: 'x', seed: 3, system: 'be brief\n', turns: ['first', 'second'], tools: [{ name: 't' }], max_tokens: 64 } as unknown as MaterializedCase;
    const text = caseShowText(c);
    expect(text).toMatch(/^--- system\nbe brief\n\n--- user, turn 1 of 2\nfirst\n\n--- user, turn 2 of 2 \(sent after the previous reply\)\nsecond\n\n--- tools \(1;/);
    expect(text.endsWith('--- max_tokens: 64; seed 3\n')).toBe(true);
    expect(caseShowText({ ...c, system: null, tools: [], seed: null, turns: ['q'] })).toBe('--- user, turn 1 of 1\nq\n\n--- max_tokens: 64\n');
  });
  it('grade: the verdict, the id and seed, and the reason made inert', () => {
    expect(gradeOutcomeText({ id: 'x', seed: null }, { status: 'pass', reason: 'ok' })).toBe('PASS x: ok\n');
    expect(gradeOutcomeText({ id: 'x', seed: 2 }, { status: 'fail', reason: 'bad \u001b[2J' })).not.toContain('\u001b');
    expect(gradeOutcomeText({ id: 'x', seed: 2 }, { status: 'fail', reason: 'bad' })).toBe('FAIL x (seed 2): bad\n');
  });
  it('calibrate: a verdict per attempt, inert, then the evidence against the label', () => {
    const result = { verdicts: [{ file: 'a\u001b[2J.txt', status: 'pass', reason: 'ok' }, { file: 'b.txt', status: 'fail', reason: 'wrong' }], calibration: { passes: 1 }, evidence: 'medium' } as never;
    const text = calibrationText('x', 'hard', result);
    expect(text).not.toContain('\u001b');
    expect(text).toMatch(/^PASS a.*\.txt: ok\nFAIL b\.txt: wrong\nx: 1 of 2 blind attempts passed: the evidence says medium \(labelled hard\)\n$/);
  });
});
