import type { CaseDriver } from './driver';
import { RunnerError } from './errors';

/** Placeholder until @crucibleforge/cases exposes its loader. */
export function createCasesDriver(options: { casesDir: string }): CaseDriver {
  throw new RunnerError('RUNNER_CONFIG_INVALID', `the cases package is not wired in yet (${options.casesDir})`);
}
