import { isTableError, tableError, type CrucibleError, type ErrorTable } from '@crucibleforge/core';

/** Every code this package throws. Expected outcomes (a failed grade, a bad case file) are values, not throws. */
export type CasesErrorCode =
  | 'CASES_SANDBOX_REQUIRED'
  | 'CASES_DERIVE_FAILED'
  | 'CASES_TEMPLATE'
  | 'CASES_UNKNOWN_PROFILE'
  | 'CASES_UNKNOWN_CASE'
  /** The case set (or its profiles) does not load: `details.problems` lists every problem with file and line. */
  | 'CASES_INVALID';

export const CASES_ERRORS = {
  CASES_SANDBOX_REQUIRED: { kind: 'sandbox', retryable: false },
  CASES_DERIVE_FAILED: { kind: 'internal', retryable: false },
  CASES_TEMPLATE: { kind: 'config', retryable: false },
  CASES_UNKNOWN_PROFILE: { kind: 'config', retryable: false },
  CASES_UNKNOWN_CASE: { kind: 'config', retryable: false },
  CASES_INVALID: { kind: 'config', retryable: false },
} as const satisfies ErrorTable<CasesErrorCode>;

export function casesError(
  code: CasesErrorCode,
  message: string,
  options: { cause?: unknown; details?: Record<string, unknown> } = {},
): CrucibleError<CasesErrorCode> {
  return tableError(CASES_ERRORS, code, message, options);
}

/** True for a cases error (one of `codes` when given). */
export function isCasesError(value: unknown, ...codes: CasesErrorCode[]): value is CrucibleError<CasesErrorCode> {
  return isTableError(CASES_ERRORS, value, codes);
}
