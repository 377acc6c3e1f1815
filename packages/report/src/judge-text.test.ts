import { describe, expect, it } from 'vitest';
import { judgeSummaryLine } from './judge-text';

describe('judgeSummaryLine', () => {
  const none = { judged: 0, correct: 0, incorrect: 0, judge_errors: 0, pending: 0, self_judge_skipped: 0 };
  it('counts the verdicts, or says there was nothing to judge (and what keeps a judge error)', () => {
    expect(judgeSummaryLine({ ...none, judged: 3, correct: 2, incorrect: 1, pending: 1 }, 'r1')).toBe('judged 3: 2 correct, 1 incorrect, 0 judge errors; 1 rows still pending\n');
    expect(judgeSummaryLine(none, 'r1')).toBe('nothing to judge in run r1\n');
    expect(judgeSummaryLine({ ...none, pending: 2 }, 'r1')).toBe('nothing to judge in run r1 (2 rows keep a judge error; --retry-errors retries them)\n');
    expect(judgeSummaryLine({ ...none, self_judge_skipped: 1 }, 'r1')).toMatch(/^judged 0:/);
  });
});
