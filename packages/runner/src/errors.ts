import { CrucibleError, isTableError, type CrucibleErrorOptions, type ErrorTable } from '@crucibleforge/core';

/** Every code the runner throws. Expected failures (a case that failed, a model that stopped) are values. */
export type RunnerErrorCode =
  | 'RUNNER_CONFIG_NOT_FOUND'
  | 'RUNNER_CONFIG_INVALID'
  | 'RUNNER_CONFIG_EXISTS'
  | 'RUNNER_MISSING_API_KEY'
  | 'RUNNER_UNKNOWN_MODEL'
  | 'RUNNER_UNKNOWN_RUN'
  | 'RUNNER_OPENCLAW_INVALID'
  | 'RUNNER_NO_JUDGE'
  | 'RUNNER_CANARY_FAILED'
  | 'RUNNER_STORAGE'
  | 'RUNNER_BUSY'
  /** A reply stream arrived damaged (events not JSON, bytes not UTF-8, an end without finish): the endpoint's fault. Retryable. */
  | 'RUNNER_BAD_STREAM';

/** Kind and default retryability of every runner code. */
export const RUNNER_ERRORS = {
  RUNNER_CONFIG_NOT_FOUND: { kind: 'config', retryable: false },
  RUNNER_CONFIG_INVALID: { kind: 'config', retryable: false },
  RUNNER_CONFIG_EXISTS: { kind: 'config', retryable: false },
  RUNNER_MISSING_API_KEY: { kind: 'config', retryable: false },
  RUNNER_UNKNOWN_MODEL: { kind: 'config', retryable: false },
  RUNNER_UNKNOWN_RUN: { kind: 'not-found', retryable: false },
  RUNNER_OPENCLAW_INVALID: { kind: 'config', retryable: false },
  RUNNER_NO_JUDGE: { kind: 'config', retryable: false },
  RUNNER_CANARY_FAILED: { kind: 'judge', retryable: false },
  RUNNER_STORAGE: { kind: 'storage', retryable: false },
  RUNNER_BUSY: { kind: 'busy', retryable: true },
  RUNNER_BAD_STREAM: { kind: 'endpoint', retryable: true },
} as const satisfies ErrorTable<RunnerErrorCode>;

export class RunnerError extends CrucibleError<RunnerErrorCode> {
  constructor(code: RunnerErrorCode, message: string, options: CrucibleErrorOptions = {}) {
    super(code, message, { ...options, kind: RUNNER_ERRORS[code].kind, retryable: options.retryable ?? RUNNER_ERRORS[code].retryable });
    this.name = 'RunnerError';
  }
}

/** True for a runner error (one of `codes` when given). */
export function isRunnerError(value: unknown, ...codes: RunnerErrorCode[]): value is RunnerError {
  return isTableError(RUNNER_ERRORS, value, codes);
}

/** One problem found in a configuration file, with where it is. */
export interface ConfigIssue {
  file: string;
  line: number;
  column: number;
  /** Dotted path of the field, e.g. `models.qwen3.reasoning`. */
  field: string;
  message: string;
}

/** Formats issues as `file:line:col: field: message` lines. */
export function formatIssues(issues: ConfigIssue[]): string {
  return issues.map((i) => `${i.file}:${i.line}:${i.column}: ${i.field || '(top level)'}: ${i.message}`).join('\n');
}

export function configInvalid(file: string, issues: ConfigIssue[]): RunnerError {
  return new RunnerError('RUNNER_CONFIG_INVALID', `invalid configuration in ${file}:\n${formatIssues(issues)}`, {
    details: { file, issues },
  });
}
