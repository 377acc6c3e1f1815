import type { ResultRow, SpeedSummary } from '@crucibleforge/core';
import type { RowOutcome } from './rates';

/** Bumped whenever the shape of `Comparison` (and so of `compare --json`) changes incompatibly. */
export const COMPARISON_SCHEMA_VERSION = 1;

/** What a comparison says about one metric. `unknown`: it could not be measured (reason in `note`). */
export type Verdict = 'better' | 'worse' | 'no-change' | 'unknown';

/** A metric a CI job can gate on (`--gate`; `speed` is shorthand for decode, prefill and ttft). */
export type GateMetric = 'ability' | 'decode' | 'prefill' | 'ttft' | 'cost' | 'tokens';

/** One side of a comparison: a model inside a run. */
export interface CompareSide {
  run_id: string;
  /** The model's label in the run. */
  model: string;
  /** The run's rows (other models' rows are ignored; the latest attempt per case counts). */
  rows: readonly ResultRow[];
  /** This model's speed summary from the run's speed.json; null or absent when the run has none. */
  speed?: SpeedSummary | null;
  /** The run's seed (the manifest's), to explain a seed mismatch; null or absent when unknown. */
  seed?: number | null;
}

/** How much worse the candidate may get before the gate fails. */
export interface CompareThresholds {
  /** Largest tolerated drop in pass rate, in percentage points (default 0). */
  max_drop_pp: number;
  /** Largest tolerated slowdown as a fraction, 0.1 = 10 % (default 0): decode or prefill T/s lower, or TTFT longer. */
  max_slowdown: number;
  /** Largest tolerated rise in cost per case as a fraction (default 0). */
  max_cost_increase: number;
  /** Largest tolerated rise in output tokens per case as a fraction (default 0). */
  max_token_increase: number;
}

export interface CompareInput {
  baseline: CompareSide;
  candidate: CompareSide;
  /** What the gate checks (default `DEFAULT_GATE`: ability, decode, prefill, ttft). */
  gate?: readonly GateMetric[];
  thresholds?: Partial<CompareThresholds>;
  /** Significance level of the exact tests (default 0.05). */
  alpha?: number;
}

export interface SideInfo {
  run_id: string;
  model: string;
  /** `run:model`, how the command line names the side. */
  label: string;
  /** The id sent to the endpoint, from the rows (null when they disagree or carry none). */
  model_id: string | null;
  /** The run's seed, when given. */
  seed: number | null;
  /** Rows of this model counted (the latest attempt per case). */
  rows: number;
}

/** One slice (overall or a category) of the paired ability comparison. */
export interface AbilityCell {
  /** `overall` or a category. */
  scope: string;
  /** Cases both sides graded (pass or fail) at the same revision and seed. */
  cases: number;
  baseline_passes: number;
  candidate_passes: number;
  baseline_rate: number | null;
  candidate_rate: number | null;
  /** (candidate rate − baseline rate) × 100, on the same cases; null with no cases. */
  delta_pp: number | null;
  /** Passed on the baseline, failed on the candidate. */
  regressions: number;
  /** Failed on the baseline, passed on the candidate. */
  improvements: number;
  /** Exact two-sided McNemar p-value (binomial ½ on regressions vs improvements). */
  p_value: number;
  /** Holm-adjusted over the categories (the verdict uses it); equal to `p_value` for `overall`. */
  p_adjusted: number;
  verdict: Verdict;
}

export interface FlippedCase {
  case_id: string;
  category: string;
  difficulty: string;
  title: string | null;
  /** `regression`: pass → fail; `improvement`: fail → pass. */
  direction: 'regression' | 'improvement';
  /** The grader's reason on the side that failed. */
  reason: string;
}

/** Cases left out of the paired test, and why. */
export interface Exclusions {
  /** Case ids only the baseline has a row for. */
  baseline_only: string[];
  candidate_only: string[];
  /** Same case, different case revision (the case was edited between the runs). */
  revision: { case_id: string; baseline: string; candidate: string }[];
  /** Same case and revision, different seed (a seeded case drew other numbers). */
  seed: { case_id: string; baseline: number | null; candidate: number | null }[];
  /** Not graded on at least one side: pending the judge, skipped, errored or judge-errored. */
  ungraded: { case_id: string; baseline: RowOutcome; candidate: RowOutcome }[];
}

export interface AbilityComparison {
  overall: AbilityCell;
  /** Categories with at least one paired case, in `CATEGORIES` order then any others. */
  categories: AbilityCell[];
  /** Regressions first, then improvements; each in category order, then case id. */
  flipped: FlippedCase[];
  excluded: Exclusions;
}

export type SpeedMetric = 'decode_tps' | 'prefill_tps' | 'ttft_s';

export interface SpeedSideStat {
  /** The speed summary's median (over all its rounds), or null when not measured. */
  median: number | null;
  /** Rounds with a usable value (positive, finite). */
  rounds: number;
  min: number | null;
  max: number | null;
  /**
   * Relative half-spread of the repeated rounds: the largest |ln(round / median of its prompt's rounds)|.
   * Null when no prompt has two usable rounds (nothing repeated, so the noise is unknown).
   */
  noise: number | null;
}

export interface SpeedMetricComparison {
  metric: SpeedMetric;
  higher_is_better: boolean;
  baseline: SpeedSideStat;
  candidate: SpeedSideStat;
  /**
   * Candidate over baseline: the geometric mean, over the prompts both speed runs measured, of the ratio of
   * the prompt medians; the ratio of the summary medians when rounds are missing. Null when either is missing.
   */
  ratio: number | null;
  /** How much slower the candidate is, as a fraction: 1 − ratio for T/s, ratio − 1 for TTFT (negative = faster). */
  slowdown: number | null;
  /** The sum of both sides' noise: |ln ratio| must exceed it for a change to count. */
  noise: number | null;
  verdict: Verdict;
  /** Why the verdict is `unknown`, or empty. */
  note: string;
}

export interface SpeedComparison {
  /** Both sides have a speed summary. */
  available: boolean;
  /** Why speed is missing, or null. */
  note: string | null;
  metrics: SpeedMetricComparison[];
}

/** Cost or output tokens per case, on the paired cases where both sides report the figure. */
export interface UsageComparison {
  metric: 'cost_usd' | 'output_tokens';
  cases: number;
  baseline_per_case: number | null;
  candidate_per_case: number | null;
  /** candidate_per_case / baseline_per_case. */
  ratio: number | null;
  /** ratio − 1 (positive = the candidate costs more). */
  increase: number | null;
  /** Cases where the candidate's figure is higher / lower than the baseline's (ties left out). */
  higher: number;
  lower: number;
  /** Exact two-sided sign test on higher vs lower; null with no cases. */
  p_value: number | null;
  verdict: Verdict;
  note: string;
}

export interface GateCheck {
  metric: GateMetric;
  verdict: Verdict;
  /** False when the metric could not be measured (no speed data, no prices). */
  measured: boolean;
  failed: boolean;
  /** One line: why it passed, failed or could not be checked. */
  reason: string;
}

export interface GateResult {
  metrics: GateMetric[];
  thresholds: CompareThresholds;
  alpha: number;
  checks: GateCheck[];
  /** Some gated metric is worse beyond noise and beyond its threshold: exit 1. */
  failed: boolean;
  /** Gated metrics that could not be measured. */
  unmeasured: GateMetric[];
}

export interface Comparison {
  schema_version: typeof COMPARISON_SCHEMA_VERSION;
  baseline: SideInfo;
  candidate: SideInfo;
  /** Baseline and candidate are the same model of the same run. */
  same_side: boolean;
  ability: AbilityComparison;
  speed: SpeedComparison;
  cost: UsageComparison;
  tokens: UsageComparison;
  /** Things to know before trusting the numbers (exclusions, mixed judges). */
  notes: string[];
  gate: GateResult;
}
