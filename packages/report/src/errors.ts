import { CrucibleError, isTableError, type ErrorTable } from '@crucibleforge/core';

/**
 * The closed set of codes this package throws. All of them mean "the caller passed something wrong";
 * nothing in the reporter fails for infrastructure reasons (it does no I/O).
 */
export type ReportErrorCode =
  /** A result row is missing a field or carries a value the reporter cannot read. */
  | 'REPORT_INVALID_ROW'
  /** A top-level option of `buildReport` is wrong (timestamp, version, unknown model filter). */
  | 'REPORT_INVALID_INPUT'
  /** A statistics helper got counts that are not non-negative integers (or k > n). */
  | 'REPORT_INVALID_ARGUMENT'
  /** A format name other than md, json or html. */
  | 'REPORT_UNKNOWN_FORMAT'
  /** A `--gate` name other than ability, decode, prefill, ttft, cost, tokens, speed, all or none. */
  | 'REPORT_UNKNOWN_GATE'
  /** A side of a comparison names a model the run has no rows for. */
  | 'REPORT_COMPARE_UNKNOWN_MODEL'
  /** The two sides of a comparison have no case graded on both at the same revision and seed. */
  | 'REPORT_COMPARE_NOTHING_SHARED';

export const REPORT_ERRORS = {
  REPORT_INVALID_ROW: { kind: 'storage', retryable: false },
  REPORT_INVALID_INPUT: { kind: 'config', retryable: false },
  REPORT_INVALID_ARGUMENT: { kind: 'internal', retryable: false },
  REPORT_UNKNOWN_FORMAT: { kind: 'config', retryable: false },
  REPORT_UNKNOWN_GATE: { kind: 'config', retryable: false },
  REPORT_COMPARE_UNKNOWN_MODEL: { kind: 'config', retryable: false },
  REPORT_COMPARE_NOTHING_SHARED: { kind: 'config', retryable: false },
} as const satisfies ErrorTable<ReportErrorCode>;

export class ReportError extends CrucibleError<ReportErrorCode> {
  constructor(code: ReportErrorCode, message: string, options: { details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(code, message, { ...options, kind: REPORT_ERRORS[code].kind });
    this.name = 'ReportError';
  }
}

/** True for a report error (one of `codes` when given). */
export function isReportError(value: unknown, ...codes: ReportErrorCode[]): value is ReportError {
  return isTableError(REPORT_ERRORS, value, codes);
}
