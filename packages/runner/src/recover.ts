import { worldFor, defaultDriver, type CreateRunOptions } from './api';
import { apiKeyFor, resolveModel } from './config';
import { estimateCost } from './cost';
import type { CaseDriver } from './driver';
import { startRun, type RunHandle } from './engine';
import { RunnerError } from './errors';
import { attachApiKeys, type PlannedModel, type RunPlan } from './plan';
import { loadRun, runDir } from './storage';
import type { RunRow } from './storage-types';

export interface RecoverOptions extends Pick<CreateRunOptions, 'config' | 'env' | 'resultsDir' | 'toolVersion' | 'world' | 'leaseCacheDir' | 'allowUnsandboxed' | 'signal'> {
  runId: string;
  /** Only these model labels. */
  models?: string[];
  /** Default: the cases package over the run's own cases dir. */
  driver?: CaseDriver;
}

/** Rows whose reasoning overflow was not recovered and that have not been through the whole ladder yet. */
export function rowsToRecover(rows: RunRow[]): RunRow[] {
  return rows.filter((r) => r.overflow?.happened && !r.overflow.recovered && (r.recovery?.attempts ?? 1) < 3);
}

/**
 * Re-runs only the unrecovered reasoning-overflow rows of an earlier run, under its run id (the new rows
 * supersede the old ones), with the full recovery ladder. Judging is separate (judgeRun).
 */
export async function recoverRun(options: RecoverOptions): Promise<RunHandle> {
  const run = await loadRun(options.resultsDir, options.runId);
  const targets = rowsToRecover(run.rows).filter((r) => !options.models || options.models.includes(r.model));
  const driver = options.driver ?? (await defaultDriver(run.manifest.runner.cases_dir));
  const cases = await driver.plan({ profile: run.manifest.profile, categories: run.manifest.runner.categories });
  const byId = new Map(cases.map((c) => [c.id, c]));
  const labels = [...new Set(targets.map((r) => r.model))];
  const models: PlannedModel[] = labels.map((label) => ({
    resolved: resolveModel(options.config, label),
    todo: targets
      .filter((r) => r.model === label)
      .map((r) => {
        const planned = byId.get(r.case_id);
        if (!planned) throw new RunnerError('RUNNER_CONFIG_INVALID', `case ${r.case_id} of run ${options.runId} is no longer in the case set`);
        return { planned, seed: r.seed };
      }),
  }));
  const keys = new Map(models.map((m) => [m.resolved.label, apiKeyFor(m.resolved, options.env)] as const));
  const plan: RunPlan = {
    runId: options.runId,
    dir: runDir(options.resultsDir, options.runId),
    resumed: true,
    fresh: false,
    manifest: run.manifest,
    models,
    cases,
    total: targets.length,
    alreadyDone: 0,
    prior: { passes: 0, cost_usd: 0, rows: [] },
    estimate: estimateCost([]),
    budgetUsd: null,
    resultsDir: options.resultsDir,
    speed: null,
  };
  attachApiKeys(plan, keys);
  return startRun(plan, driver, worldFor(options), options.toolVersion, { ladder: 'full', ...(options.signal ? { signal: options.signal } : {}) });
}
