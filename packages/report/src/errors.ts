import { CrucibleError } from '@crucibleforge/core';

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

export class ReportError extends CrucibleError<ReportErrorCode> {
  constructor(code: ReportErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(code, message, { details });
    this.name = 'ReportError';
  }
}
