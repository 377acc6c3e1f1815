import { createHash } from 'node:crypto';
import type { Category, JudgeIdentity } from '@crucibleforge/core';
import { JUDGE_PROMPT_VERSION } from '@crucibleforge/judge';
import { apiKeyFor, resolveModel, selectModels, type ResolvedModel } from './config';
import type { RunnerConfigData } from './config-schema';
import { estimateCost, type CostEstimate, type EstimateItem } from './cost';
import type { PlannedCase } from '@crucibleforge/cases';
import type { CaseDriver } from './driver';
import { RunnerError } from './errors';
import { sentBudget } from './case-run';
import { RUN_SPEED_SETTINGS, speedRequestPlan, type SpeedSettings } from '@crucibleforge/speed';
import { readRunSpeed } from './speed-store';
import { listRuns, loadRun, missingKeys, newRunId, runDir } from './storage';
import type { ManifestModel, RunManifestFile, RunRow } from './storage-types';

export type ConfigInput = RunnerConfigData & { file?: string };

export interface PlanOptions {
  config: ConfigInput;
  /** Where API keys are read from (the CLI passes process.env; the library never reads it). */
  env: Record<string, string | undefined>;
  /** Labels, or ['all'] for every enabled model. Ignored when resuming (the run's own models are used). */
  models?: string[];
  profile?: string;
  categories?: Category[] | null;
  /** Seed for seeded cases (default 1). */
  seed?: number;
  resultsDir: string;
  casesDir: string;
  driver: CaseDriver;
  /** Continue this run. */
  resume?: string;
  /** Continue the newest unfinished run of the same command, if any (default true). */
  autoResume?: boolean;
  budgetUsd?: number | null;
  toolVersion: string;
  /** The judge's identity for the manifest (the prompt version comes from the judge package). */
  judgePromptVersion?: string;
  now?: () => Date;
  random?: () => number;
  /**
   * Measure each model's speed (TTFT, decode, prefill) before its cases, stored in the run's speed.json; a
   * model already measured in the run is not measured again. `true`: the speed package's RUN_SPEED_SETTINGS
   * (fewer rounds than `crucibleforge speed`). Default false (the CLI's `run`/`all` and the GUI pass true).
   */
  speed?: SpeedSettings | boolean;
}

export interface PlannedModel {
  resolved: ResolvedModel;
  todo: { planned: PlannedCase; seed: number | null }[];
}

export interface RunPlan {
  runId: string;
  dir: string;
  resumed: boolean;
  /** True when the manifest still has to be written (a new run). */
  fresh: boolean;
  manifest: RunManifestFile;
  models: PlannedModel[];
  cases: PlannedCase[];
  total: number;
  alreadyDone: number;
  /** Passes and cost of rows written before this session. */
  prior: { passes: number; cost_usd: number; rows: RunRow[] };
  /** Upper bound for what is still to do. */
  estimate: CostEstimate;
  budgetUsd: number | null;
  resultsDir: string;
  /** The speed measurement of this session and the labels it measures (those with cases to do and no speed yet). */
  speed: { settings: SpeedSettings; models: string[] } | null;
}

const keyStore = new WeakMap<RunPlan, Map<string, string | undefined>>();

/** The API key resolved for a model at plan time (kept out of the plan object so it never gets serialised). */
export function planApiKey(plan: RunPlan, label: string): string | undefined {
  return keyStore.get(plan)?.get(label);
}

/** Records the keys a hand-made plan (recover) runs with. */
export function attachApiKeys(plan: RunPlan, keys: Map<string, string | undefined>): void {
  keyStore.set(plan, keys);
}

/** What of a model decides its results: a label alone may point at another model after models.yaml changes. */
export interface FingerprintModel {
  label: string;
  model_id: string;
  base_url: string;
  reasoning: string;
}

export function fingerprintOf(parts: { profile: string; categories: Category[] | null; seed: number; models: FingerprintModel[]; cases: { id: string; revision: string }[] }): string {
  const canonical = JSON.stringify({
    profile: parts.profile,
    categories: parts.categories ? [...parts.categories].sort() : null,
    seed: parts.seed,
    models: parts.models.map((m) => `${m.label}\u0000${m.model_id}\u0000${m.base_url.replace(/\/+$/, '')}\u0000${m.reasoning}`).sort(),
    cases: parts.cases.map((c) => `${c.id}@${c.revision}`).sort(),
  });
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

function manifestModel(r: ResolvedModel): ManifestModel {
  return {
    label: r.label,
    model_id: r.model.id,
    provider: r.providerName,
    kind: r.provider.kind,
    base_url: r.provider.base_url,
    concurrency: r.concurrency,
    prices: r.prices,
    reasoning: r.model.reasoning,
    context_length: r.model.context_length ?? null,
  };
}

/** Refuses resuming a run whose labels now mean other model settings (id, endpoint, reasoning mode). */
function checkSameModels(manifest: RunManifestFile, resolved: ResolvedModel[]): void {
  const recorded = new Map((manifest.runner?.models ?? []).map((m) => [m.label, m]));
  const changes: string[] = [];
  for (const r of resolved) {
    const was = recorded.get(r.label);
    if (!was) continue; // an old manifest without the settings: nothing to compare
    const diff: string[] = [];
    if (was.model_id !== r.model.id) diff.push(`model id ${was.model_id} → ${r.model.id}`);
    if (was.base_url.replace(/\/+$/, '') !== r.provider.base_url.replace(/\/+$/, '')) diff.push(`base_url ${was.base_url} → ${r.provider.base_url}`);
    if (was.reasoning !== r.model.reasoning) diff.push(`reasoning ${was.reasoning} → ${r.model.reasoning}`);
    if (diff.length) changes.push(`"${r.label}": ${diff.join(', ')}`);
  }
  if (changes.length) {
    throw new RunnerError(
      'RUNNER_CONFIG_INVALID',
      `run ${manifest.run_id} cannot be resumed: models.yaml changed since it started (${changes.join('; ')}); ` +
        'restore those settings, or start a new run instead of mixing two models under one label',
      { details: { run_id: manifest.run_id, changes } },
    );
  }
}

function judgeIdentity(config: ConfigInput, promptVersion: string | undefined): JudgeIdentity | null {
  if (!config.judge) return null;
  const judge = resolveModel(config, config.judge.model);
  return { model: judge.model.id, endpoint: judge.provider.base_url, prompt_version: promptVersion ?? JUDGE_PROMPT_VERSION };
}

/** The speed measurement's requests of a model, as one estimate item. */
function speedItem(resolved: ResolvedModel, settings: SpeedSettings): EstimateItem {
  const plan = speedRequestPlan(settings);
  const maxTokens = settings.maxTokens ?? 256;
  return { model: resolved.label, prices: resolved.prices, prompt_chars: plan.max_prompt_chars, max_tokens: maxTokens, retry_max_tokens: 0, turns: plan.requests, speed: true };
}

/** Estimate items for what is left to do (reasoning models assumed to use the boosted budget), speed measurements included. */
function estimateItems(models: PlannedModel[], speed: RunPlan['speed']): EstimateItem[] {
  const speedItems = speed ? models.filter((m) => speed.models.includes(m.resolved.label)).map((m) => speedItem(m.resolved, speed.settings)) : [];
  return [...speedItems, ...models.flatMap(({ resolved, todo }) =>
    todo.map(({ planned }) => {
      const mayReason = resolved.model.reasoning !== 'off';
      const budget = sentBudget({ resolved, reasoning: mayReason }, planned.max_tokens);
      return {
        model: resolved.label,
        prices: resolved.prices,
        prompt_chars: planned.prompt_chars,
        max_tokens: budget,
        retry_max_tokens: mayReason && resolved.model.recovery ? planned.max_tokens : 0,
        turns: Math.max(1, planned.turns),
      };
    }),
  )];
}

/**
 * Works out what a run will do before anything is sent: the cases, the models (API keys checked), which
 * earlier run it continues, what is missing and an upper-bound cost. Nothing is written.
 */
export async function planRun(options: PlanOptions): Promise<RunPlan> {
  const now = options.now ?? (() => new Date());
  const random = options.random ?? Math.random;
  let manifest: RunManifestFile | null = null;
  let prior: RunRow[] = [];
  if (options.resume) {
    const run = await loadRun(options.resultsDir, options.resume);
    manifest = run.manifest;
    prior = run.rows;
  }
  const profile = manifest?.profile ?? options.profile;
  if (!profile) throw new RunnerError('RUNNER_CONFIG_INVALID', 'a profile is required (--profile NAME)');
  const categories = manifest ? manifest.runner.categories : (options.categories ?? null);
  const seed = manifest?.seed ?? options.seed ?? 1;
  const labels = manifest ? manifest.models.map((m) => m.label) : selectModels(options.config, options.models ?? []);
  if (labels.length === 0) throw new RunnerError('RUNNER_UNKNOWN_MODEL', 'no models selected (--models a,b or --models all for every enabled one)');
  const resolved = labels.map((label) => resolveModel(options.config, label));
  if (manifest) checkSameModels(manifest, resolved);
  const keys = new Map(resolved.map((r) => [r.label, apiKeyFor(r, options.env)] as const));

  const current = await options.driver.plan({ profile, categories });
  let cases = current;
  if (manifest) {
    const byId = new Map(current.map((c) => [c.id, c]));
    cases = manifest.cases.map((c) => {
      const found = byId.get(c.id);
      if (!found) throw new RunnerError('RUNNER_CONFIG_INVALID', `run ${manifest!.run_id} used case ${c.id}, which no longer exists in ${options.casesDir}`);
      return found;
    });
  }
  const caseSeed = (c: PlannedCase) => (c.seeded ? seed : null);
  const fingerprint = fingerprintOf({
    profile,
    categories,
    seed,
    models: resolved.map((r) => ({ label: r.label, model_id: r.model.id, base_url: r.provider.base_url, reasoning: r.model.reasoning })),
    cases: cases.map((c) => ({ id: c.id, revision: c.revision })),
  });

  if (!manifest && options.autoResume !== false) {
    const unfinished = (await listRuns(options.resultsDir)).filter((r) => r.fingerprint === fingerprint && !r.complete).at(-1);
    if (unfinished) {
      const run = await loadRun(options.resultsDir, unfinished.run_id);
      manifest = run.manifest;
      prior = run.rows;
    }
  }
  const resumed = manifest !== null;
  const runId = manifest?.run_id ?? newRunId(now(), random);
  manifest ??= {
    schema_version: 1,
    run_id: runId,
    created_at: now().toISOString(),
    tool_version: options.toolVersion,
    profile,
    models: resolved.map((r) => ({ label: r.label, model_id: r.model.id, provider: r.providerName })),
    cases: cases.map((c) => ({ id: c.id, revision: c.revision, seed: caseSeed(c) })),
    seed,
    judge: judgeIdentity(options.config, options.judgePromptVersion),
    runner: {
      fingerprint,
      categories,
      budget_usd: options.budgetUsd ?? null,
      cases_dir: options.casesDir,
      config_file: options.config.file ?? null,
      models: resolved.map(manifestModel),
    },
  };
  const missing = missingKeys(manifest, prior);
  const missingSet = new Set(missing.map((k) => `${k.model}\u0000${k.case_id}`));
  const byId = new Map(cases.map((c) => [c.id, c]));
  for (const c of manifest.cases) {
    const now = byId.get(c.id)!;
    const todoSomewhere = labels.some((l) => missingSet.has(`${l}\u0000${c.id}`));
    if (todoSomewhere && now.revision !== c.revision) {
      throw new RunnerError(
        'RUNNER_CONFIG_INVALID',
        `case ${c.id} changed since run ${runId} started (revision ${c.revision} → ${now.revision}); start a new run instead of resuming`,
      );
    }
  }
  const models: PlannedModel[] = resolved.map((r) => ({
    resolved: r,
    todo: cases.filter((c) => missingSet.has(`${r.label}\u0000${c.id}`)).map((planned) => ({ planned, seed: caseSeed(planned) })),
  }));
  const total = labels.length * cases.length;
  const measured = new Set(resumed ? ((await readRunSpeed(options.resultsDir, runId).catch(() => null)) ?? []).map((s) => s.model) : []);
  const settings = options.speed === true ? RUN_SPEED_SETTINGS : options.speed || null;
  const speed = settings ? { settings, models: models.filter((m) => m.todo.length > 0 && !measured.has(m.resolved.label)).map((m) => m.resolved.label) } : null;
  const plan: RunPlan = {
    runId,
    dir: runDir(options.resultsDir, runId),
    resumed,
    fresh: !resumed,
    manifest,
    models,
    cases,
    total,
    alreadyDone: total - missing.length,
    prior: {
      passes: prior.filter((r) => r.grade.status === 'pass').length,
      cost_usd: prior.reduce((s, r) => s + (r.cost_usd ?? 0), 0),
      rows: prior,
    },
    estimate: estimateCost(estimateItems(models, speed)),
    budgetUsd: options.budgetUsd ?? manifest.runner.budget_usd ?? null,
    resultsDir: options.resultsDir,
    speed,
  };
  keyStore.set(plan, keys);
  return plan;
}
