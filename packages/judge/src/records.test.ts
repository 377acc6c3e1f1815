import type { JudgeRecord } from '@crucibleforge/core';
import { describe, expect, it } from 'vitest';
import { gradeFromVerdict, needsJudging, sameJudge } from './records';

const identity = { model: 'j', endpoint: 'http://e/v1', prompt_version: 'ref-judge/1' };
const rec = (verdict: JudgeRecord['verdict'], extra: Partial<JudgeRecord> = {}): JudgeRecord => ({
  verdict,
  note: 'n',
  identity,
  samples: 1,
  agreement: 1,
  judged_at: '2030-01-01T00:00:00.000Z',
  ...extra,
});

describe('records', () => {
  it('needsJudging picks missing records, judge errors and other judges', () => {
    expect(needsJudging(undefined)).toBe(true);
    expect(needsJudging(rec('judge-error'))).toBe(true);
    expect(needsJudging(rec('incorrect'))).toBe(false);
    expect(needsJudging(rec('correct'), identity)).toBe(false);
    expect(needsJudging(rec('correct'), { ...identity, prompt_version: 'ref-judge/2' })).toBe(true);
    expect(sameJudge(identity, { ...identity, endpoint: 'http://other/v1' })).toBe(false);
  });

  it('gradeFromVerdict never turns a judge error into a fail', () => {
    expect(gradeFromVerdict(rec('correct')).status).toBe('pass');
    expect(gradeFromVerdict(rec('incorrect', { samples: 3, agreement: 2 / 3 })).reason).toMatch(/2\/3 samples agree: n$/);
    expect(gradeFromVerdict(rec('judge-error', { note: 'timed out' }))).toEqual({
      status: 'pending',
      reason: 'judge j (ref-judge/1) gave no verdict: timed out',
    });
  });
});
