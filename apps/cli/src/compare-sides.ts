/** Reads one side of `compare` (`RUN_ID[:model]`) from a results directory: the model's rows, speed and the run's seed. */
import type { CompareSide } from '@crucibleforge/report';
import { latestRunId, loadRun, readRunSpeed } from '@crucibleforge/runner';
import { UsageError } from './io';

export interface SideSpec {
  /** A run id, or `latest` for the newest run of the results directory. */
  run: string;
  /** The model label; null = the run's only model. */
  model: string | null;
}

/** `RUN_ID[:model]`: the run id has no colon, so everything after the first one is the label (labels may hold colons). */
export function parseSideSpec(text: string, which: 'baseline' | 'candidate'): SideSpec {
  const at = text.indexOf(':');
  const run = at < 0 ? text : text.slice(0, at);
  const model = at < 0 ? null : text.slice(at + 1);
  if (run === '') throw new UsageError(`${which} "${text}": give RUN_ID[:model] (a run id, or "latest")`);
  if (model === '') throw new UsageError(`${which} "${text}": the model after ":" is empty`);
  return { run, model };
}

/** Loads the side: an unknown run throws RUNNER_UNKNOWN_RUN (exit 2); a model the run does not have is a usage error naming its models. */
export async function loadSide(resultsDir: string, spec: SideSpec, which: 'baseline' | 'candidate'): Promise<CompareSide> {
  const runId = spec.run === 'latest' ? await latestRunId(resultsDir) : spec.run;
  const run = await loadRun(resultsDir, runId);
  const labels = run.manifest.models.map((m) => m.label);
  let model = spec.model;
  if (model === null) {
    if (labels.length !== 1) throw new UsageError(`${which}: run ${runId} has ${labels.length} models (${labels.join(', ')}); name one as ${runId}:<model>`);
    model = labels[0]!;
  }
  if (!labels.includes(model)) throw new UsageError(`${which}: run ${runId} has no model "${model}" (it has ${labels.join(', ') || 'none'})`);
  const speed = ((await readRunSpeed(resultsDir, runId)) ?? []).find((s) => s.model === model) ?? null;
  return { run_id: runId, model, rows: run.rows, speed, seed: run.manifest.seed };
}
