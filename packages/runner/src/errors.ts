import { CrucibleError } from '@crucibleforge/core';

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

export class RunnerError extends CrucibleError<RunnerErrorCode> {
  constructor(code: RunnerErrorCode, message: string, options: ConstructorParameters<typeof CrucibleError>[2] = {}) {
    super(code, message, options);
    this.name = 'RunnerError';
  }
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
