import type {
  ChatMessage,
  FinishReason,
  JudgeIdentity,
  JudgeRecord,
  PairwiseSummary,
  ResultRow,
  RunManifest,
  SpeedSummary,
  TokenUsage,
  ToolCall,
} from '@crucibleforge/core';
import type { ModelStatus, ModelStopInput } from './status';

/** Bumped whenever the shape of `ReportData` (and so of report.json) changes incompatibly. */
export const REPORT_SCHEMA_VERSION = 1;

export interface BuildReportInput {
  /** Every stored attempt; older attempts of the same (model, case) are superseded by the latest. */
  rows: readonly ResultRow[];
  /** The runs the rows came from: run list in the header and the current revision of each case. */
  manifests?: readonly RunManifest[];
  /** Speed-run medians per model; models without one fall back to the medians of their bench rows. */
  speed?: readonly SpeedSummary[];
  /** The judge's pairwise comparison, if one was run. */
  pairwise?: PairwiseSummary | null;
  /** ISO-8601 timestamp printed as "generated" (passed in: the reporter never reads the clock). */
  generatedAt: string;
  /** Version of the tool that writes the report. */
  toolVersion: string;
  /** Keep only these model labels (e.g. from `--models`); a label with no rows is an error. */
  models?: readonly string[];
  /** Cap on each text kept for a failure's detail (prompt, response, reasoning). Default 20 000 characters. */
  maxDetailChars?: number;
  /** Why models stopped (the runs' `model-stopped` records): every report form shows a stopped model and why. */
  stops?: readonly ModelStopInput[];
}

/** Counts and rate of one model in one slice (a category, hard cases, or everything). */
export interface RateCell {
  /** Rows counted in this slice (latest attempt per case), whatever their status. */
  attempted: number;
  passes: number;
  fails: number;
  /** passes + fails: the denominator. Pending, skipped and errored rows are not in it. */
  graded: number;
  /** passes / graded, or null when nothing was graded. */
  rate: number | null;
  /** 95 % Wilson interval of `rate`, or null when nothing was graded. */
  ci95: [number, number] | null;
  /** Awaiting the judge. */
  pending: number;
  /** Not run (typically: the model's context is too small). */
  skipped: number;
  /** Infrastructure error (transport, sandbox): never scored. */
  errors: number;
  /** The judge failed to give a verdict: never scored. */
  judge_errors: number;
}

export interface SpeedCell {
  decode_tps: number | null;
  ttft_s: number | null;
  prefill_tps: number | null;
  /** `speed-run`: from `SpeedSummary`; `bench-rows`: medians of the bench rows' own timings. */
  source: 'speed-run' | 'bench-rows';
  plausibility: SpeedSummary['plausibility'] | null;
}

export interface ModelSummary {
  rank: number;
  model: string;
  model_id: string | null;
  provider: string | null;
  /** All categories pooled. */
  overall: RateCell;
  /** One cell per category in `ReportData.categories`; absent when the model has no row there. */
  categories: Record<string, RateCell>;
  /** Hard cases only, all categories pooled. */
  hard: RateCell;
  speed: SpeedCell | null;
  /** Sum of `cost_usd` over the counted rows; null when no row carries a cost. */
  cost_usd: number | null;
  overflow: { total: number; recovered: number; unrecovered: number };
  /** Distinct judge identities over this model's judged rows, most used first. */
  judges: JudgeIdentity[];
  /** Which grader versions graded this model's counted rows (`graders/1` for rows from before versions were recorded), most rows first. */
  grader_versions: { version: string; rows: number }[];
  run_ids: string[];
  /** Newest `finished_at` among the counted rows. */
  last_finished_at: string;
  /** False when any comparability issue names this model. */
  comparable: boolean;
  /** Human-readable notes (comparability, coverage). */
  notes: string[];
  /** Its stop and reason, the cases not run, and its retries (every model of the runs has one, rows or not). */
  status: ModelStatus;
}

export type ComparabilityIssue =
  | {
      kind: 'case-revision';
      case_id: string;
      category: string;
      /** Revision in the newest manifest listing the case, when known. */
      current_revision: string | null;
      revisions: { revision: string; models: string[] }[];
    }
  | {
      kind: 'judge';
      /** The judge of the newest manifest that names one. */
      expected: JudgeIdentity | null;
      groups: { identity: JudgeIdentity; label: string; models: string[]; case_ids: string[]; rows: number }[];
    }
  | {
      kind: 'grader-version';
      /** The newest version among the rows: the one the others are compared against. */
      newest: string;
      groups: { version: string; models: string[]; rows: number }[];
    }
  | {
      kind: 'coverage';
      total_cases: number;
      models: { model: string; cases: number; missing: string[] }[];
    };

export type FailureKind = 'fail' | 'error' | 'judge-error';

export interface FailureDetail {
  /** The prompt as sent (texts capped at `maxDetailChars`). */
  messages: ChatMessage[];
  content: string;
  reasoning: string;
  tool_calls: ToolCall[];
  transcript: ChatMessage[] | null;
  grade_reason: string;
  judge: Pick<JudgeRecord, 'verdict' | 'note' | 'identity' | 'samples' | 'agreement'> | null;
  error_class: string | null;
  finish_reason: FinishReason;
  usage: TokenUsage;
}

export interface FailureEntry {
  model: string;
  category: string;
  case_id: string;
  case_revision: string;
  difficulty: string;
  title: string | null;
  kind: FailureKind;
  /** One line: the grader's reason, prefixed with `TRUNCATED at N tokens (…)` when the reply hit the limit. */
  reason: string;
  run_id: string;
  finished_at: string;
  /** The graders that graded the row (`graders/1` for rows from before versions were recorded). */
  grader_version: string;
  /** Set when `regrade` graded the row again: its status before. */
  regraded_from: string | null;
  detail: FailureDetail;
}

export interface PairedComparison {
  /** The higher-ranked model of the pair. */
  a: string;
  b: string;
  /** Cases both models graded (pass or fail) at the same revision. */
  common: number;
  both_pass: number;
  a_only: number;
  b_only: number;
  both_fail: number;
  /** Common cases left out because the two rows are at different case revisions. */
  excluded_revision: number;
  /** Exact McNemar p-value on `a_only` vs `b_only`. */
  p_value: number;
  /** `a` / `b`: that model is better at p < 0.05; `noise`: the difference is within noise. */
  verdict: 'a' | 'b' | 'noise';
  /** e.g. `deepseek-pro beats llama-small (p=0.0020)` or `x vs y: within noise (p=0.25)`. */
  summary: string;
}

export interface PairwiseRatingRow {
  model: string;
  /** Bradley–Terry rating on the Elo-like scale; null when the summary has none for this model. */
  rating: number | null;
  wins: number;
  ties: number;
  losses: number;
  games: number;
  /** (wins + ties / 2) / games, or null with no games. */
  win_rate: number | null;
}

export interface PairwiseReport {
  judge: JudgeIdentity | null;
  /** Sorted by rating, highest first. */
  ratings: PairwiseRatingRow[];
  pairs: PairwiseSummary['pairs'];
}

export interface RunInfo {
  run_id: string;
  created_at: string;
  profile: string;
  tool_version: string;
  models: string[];
  cases: number;
  judge: JudgeIdentity | null;
}

export interface ReportData {
  schema_version: typeof REPORT_SCHEMA_VERSION;
  generated_at: string;
  tool_version: string;
  /** Categories present in the counted rows: known ones in `CATEGORIES` order, then any others. */
  categories: string[];
  runs: RunInfo[];
  /** Ranked: overall pass rate (highest first, ungraded last), then label. */
  models: ModelSummary[];
  comparability: { comparable: boolean; issues: ComparabilityIssue[] };
  /** Failures, errors and judge errors of the counted rows: model rank, category, case id order. */
  failures: FailureEntry[];
  /** Every two models on their common graded cases (exact McNemar). */
  paired: PairedComparison[];
  pairwise: PairwiseReport | null;
  counts: {
    /** Rows passed in (after the model filter). */
    rows_in: number;
    /** Latest row per (model, case): the rows everything is computed from. */
    rows_used: number;
    /** Older attempts replaced by a later one. */
    rows_superseded: number;
    /** Distinct case ids. */
    cases: number;
  };
}
