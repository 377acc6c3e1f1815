import type { GradeOutcome, JudgeIdentity, JudgeRecord } from '@crucibleforge/core';

/** True when two identities name the same judge model, endpoint and prompt version. */
export function sameJudge(a: JudgeIdentity, b: JudgeIdentity): boolean {
  return a.model === b.model && a.endpoint === b.endpoint && a.prompt_version === b.prompt_version;
}

/**
 * Whether a row needs (re-)judging: it has no record, its record is a judge-error (what
 * `judge --retry-errors` picks up), or — when `current` is given — it was judged by a different judge
 * or prompt version, so keeping it would mix judges in one score.
 */
export function needsJudging(record: JudgeRecord | undefined, current?: JudgeIdentity): boolean {
  if (record === undefined || record.verdict === 'judge-error') return true;
  return current !== undefined && !sameJudge(record.identity, current);
}

/**
 * The grade a verdict gives a row: correct → pass, incorrect → fail, judge-error → pending (the row
 * waits for `judge --retry-errors`; a judge failure is never the model's failure).
 */
export function gradeFromVerdict(record: JudgeRecord): GradeOutcome {
  const by = `${record.identity.model} (${record.identity.prompt_version})`;
  const votes = record.samples > 1 ? `, ${Math.round(record.agreement * record.samples)}/${record.samples} samples agree` : '';
  switch (record.verdict) {
    case 'correct':
      return { status: 'pass', reason: `judge ${by}: equivalent to the reference${votes}${record.note ? `: ${record.note}` : ''}` };
    case 'incorrect':
      return { status: 'fail', reason: `judge ${by}: not equivalent to the reference${votes}${record.note ? `: ${record.note}` : ''}` };
    case 'judge-error':
      return { status: 'pending', reason: `judge ${by} gave no verdict: ${record.note}` };
  }
}
