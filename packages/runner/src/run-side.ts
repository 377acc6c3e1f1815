import type { SpeedSummary } from '@crucibleforge/core';
import { RunnerError } from './errors';
import { readRunSpeed } from './speed-store';
import { loadRun, type RunLoader } from './storage';
import type { RunRow } from './storage-types';

/** One model of a stored run, as a comparison reads it (the report package's `CompareSide`). */
export interface RunSide {
  run_id: string;
  model: string;
  /** Every row of the run (the comparison keeps this model's latest attempts). */
  rows: RunRow[];
  /** This model's entry in the run's speed.json, or null when there is none. */
  speed: SpeedSummary | null;
  /** The run's seed. */
  seed: number;
}

/**
 * Loads one model of a run: its rows, its speed summary and the run's seed. `model` null picks the run's only
 * model. Throws RUNNER_UNKNOWN_RUN for a run that is not there and RUNNER_UNKNOWN_MODEL, naming the run's
 * models, for a label it does not have (or a missing label when the run has several).
 */
export async function loadRunSide(
  resultsDir: string,
  runId: string,
  model: string | null,
  reader: { load?: RunLoader; speed?: typeof readRunSpeed } = {},
): Promise<RunSide> {
  const run = await (reader.load ?? loadRun)(resultsDir, runId);
  const labels = run.manifest.models.map((m) => m.label);
  const label = model ?? (labels.length === 1 ? labels[0]! : null);
  if (label === null) {
    throw new RunnerError('RUNNER_UNKNOWN_MODEL', `run ${runId} has ${labels.length} models (${labels.join(', ')}); name one as ${runId}:<model>`, {
      details: { run_id: runId, models: labels },
    });
  }
  if (!labels.includes(label)) {
    throw new RunnerError('RUNNER_UNKNOWN_MODEL', `run ${runId} has no model "${label}" (it has ${labels.join(', ') || 'none'})`, {
      details: { run_id: runId, model: label, models: labels },
    });
  }
  const speed = ((await (reader.speed ?? readRunSpeed)(resultsDir, runId)) ?? []).find((s) => s.model === label)?.summary ?? null;
  return { run_id: runId, model: label, rows: run.rows, speed, seed: run.manifest.seed };
}
