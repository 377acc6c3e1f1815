import { CrucibleError } from '@crucibleforge/core';

/** Every code this package throws. Expected outcomes (a failed grade, a bad case file) are values, not throws. */
export type CasesErrorCode =
  | 'CASES_SANDBOX_REQUIRED'
  | 'CASES_DERIVE_FAILED'
  | 'CASES_TEMPLATE'
  | 'CASES_UNKNOWN_PROFILE'
  | 'CASES_UNKNOWN_CASE';

export function casesError(
  code: CasesErrorCode,
  message: string,
  options: { cause?: unknown; details?: Record<string, unknown> } = {},
): CrucibleError<CasesErrorCode> {
  return new CrucibleError(code, message, options);
}
