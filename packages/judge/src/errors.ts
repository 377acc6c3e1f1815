import { CrucibleError, isTableError, type CrucibleErrorOptions, type ErrorTable } from '@crucibleforge/core';

/**
 * Every code this package throws. Verdicts (correct, incorrect, judge-error, tie) are values, never
 * throws; these codes are for misconfiguration and for the two guards that must stop a batch.
 */
export type JudgeErrorCode =
  /** The calibration canary failed more probes than allowed: do not score with this judge. */
  | 'JUDGE_CANARY_FAILED'
  /** The judge model is one of the models under test and `force` was not given. */
  | 'JUDGE_SELF_SCORING'
  /** A bad argument: empty question, non-integer sample count, unknown model in a game, ... */
  | 'JUDGE_INVALID_INPUT'
  /** The caller's AbortSignal fired; nothing was decided. */
  | 'JUDGE_ABORTED';

export const JUDGE_ERRORS = {
  JUDGE_CANARY_FAILED: { kind: 'judge', retryable: false },
  JUDGE_SELF_SCORING: { kind: 'judge', retryable: false },
  JUDGE_INVALID_INPUT: { kind: 'internal', retryable: false },
  JUDGE_ABORTED: { kind: 'cancelled', retryable: false },
} as const satisfies ErrorTable<JudgeErrorCode>;

export class JudgeError extends CrucibleError<JudgeErrorCode> {
  constructor(code: JudgeErrorCode, message: string, options: CrucibleErrorOptions = {}) {
    super(code, message, { ...options, kind: JUDGE_ERRORS[code].kind, retryable: options.retryable ?? JUDGE_ERRORS[code].retryable });
    this.name = 'JudgeError';
  }
}

/** True for a judge error (one of `codes` when given). */
export function isJudgeError(value: unknown, ...codes: JudgeErrorCode[]): value is JudgeError {
  return isTableError(JUDGE_ERRORS, value, codes);
}

/** `JUDGE_INVALID_INPUT` naming the offending field. */
export function invalidInput(field: string, problem: string): JudgeError {
  return new JudgeError('JUDGE_INVALID_INPUT', `${field}: ${problem}`, { details: { field } });
}

export function requireText(field: string, value: unknown, allowEmpty = false): string {
  if (typeof value !== 'string') throw invalidInput(field, `expected a string, got ${typeof value}`);
  if (!allowEmpty && value.trim() === '') throw invalidInput(field, 'must not be empty');
  return value;
}

export function requireInt(field: string, value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw invalidInput(field, `expected an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}
