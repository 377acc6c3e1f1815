/** One side of `compare` on the command line: `RUN_ID[:model]`, read from a results directory. */
import type { CompareSide } from '@crucibleforge/report';
import { isRunnerError, latestRunId, loadRunSide } from '@crucibleforge/runner';
import { UsageError } from './io';

export interface SideSpec {
  /** A run id, or `latest` for the newest run of the results directory. */
  run: string;
  /** The model label; null = the run's only model. */
  model: string | null;
}

/** `RUN_ID[:model]`: a run id has no colon, so everything after the first one is the label (labels may hold colons). */
export function parseSideSpec(text: string, which: 'baseline' | 'candidate'): SideSpec {
  const at = text.indexOf(':');
  const run = at < 0 ? text : text.slice(0, at);
  const model = at < 0 ? null : text.slice(at + 1);
  if (run === '') throw new UsageError(`${which} "${text}": give RUN_ID[:model] (a run id, or "latest")`);
  if (model === '') throw new UsageError(`${which} "${text}": the model after ":" is empty`);
  return { run, model };
}

/** Loads the side; an unknown run stays RUNNER_UNKNOWN_RUN (exit 2), a model the run lacks is a usage error naming the side. */
export async function loadSide(resultsDir: string, spec: SideSpec, which: 'baseline' | 'candidate'): Promise<CompareSide> {
  const runId = spec.run === 'latest' ? await latestRunId(resultsDir) : spec.run;
  try {
    return await loadRunSide(resultsDir, runId, spec.model);
  } catch (error) {
    if (isRunnerError(error, 'RUNNER_UNKNOWN_MODEL')) throw new UsageError(`${which}: ${error.message}`);
    throw error;
  }
}
