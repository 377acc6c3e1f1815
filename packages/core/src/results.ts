import type { ChatMessage, FinishReason, ToolCall, TokenUsage } from './chat';

export type Category =
  | 'coding'
  | 'math'
  | 'reasoning'
  | 'tooluse'
  | 'injection'
  | 'instruct'
  | 'longctx'
  | 'prose'
  | 'agent';

export const CATEGORIES: readonly Category[] = [
  'coding',
  'math',
  'reasoning',
  'tooluse',
  'injection',
  'instruct',
  'longctx',
  'prose',
  'agent',
];

export type Difficulty = 'easy' | 'medium' | 'hard';

/**
 * What a grader decided. `pending` = waits for the judge; `skipped` = not run (e.g. the model's
 * context is too small; a skip is never a fail); `error` = infrastructure failed (never the model's fault).
 */
export type GradeStatus = 'pass' | 'fail' | 'pending' | 'skipped' | 'error';

export interface GradeOutcome {
  status: GradeStatus;
  /** One line a human can read: `test 3 failed: expected 5, got 4`, `1 calls, expected 3`. */
  reason: string;
  /** Optional fraction of elements satisfied (checks passed, facts present), 0..1. */
  score?: number;
  details?: Record<string, unknown>;
}

/** Who judged, so rows judged by different judges are never silently mixed. */
export interface JudgeIdentity {
  model: string;
  endpoint: string;
  prompt_version: string;
}

export interface JudgeRecord {
  verdict: 'correct' | 'incorrect' | 'judge-error';
  note: string;
  identity: JudgeIdentity;
  samples: number;
  /** Share of samples that agreed with the majority, 0..1. */
  agreement: number;
  judged_at: string;
}

export interface RowTimings {
  ttft_s: number | null;
  ttft_content_s: number | null;
  e2e_s: number | null;
  decode_tps: number | null;
}

/** One attempt of one case by one model: everything needed to report it and to audit it later. */
/** One fault a request of a case met (it was retried, or it ended the case). */
export interface AttemptFault {
  /** The endpoint error class: rate-limited, server-error, reset, unreachable, timeout, stall, bad-stream, … */
  class: string;
  message: string;
  /** Seconds waited before the next attempt; null when there was none (the fault ended the case). */
  wait_s: number | null;
}

/** The request attempts behind one row. */
export interface RowAttempts {
  /** Requests sent in all (every turn, recovery and retry). */
  requests: number;
  /** Of those, resends after a fault. */
  retries: number;
  /** Seconds spent waiting between attempts. */
  wait_s: number;
  faults: AttemptFault[];
}

/** What a damaged reply stream lost. */
export interface StreamDamage {
  /** `data:` events that were not JSON (their text is lost). */
  dropped_events: number;
  /** Reads that were not valid UTF-8. */
  decode_errors: number;
  /** The stream closed before a finish_reason or `[DONE]`. */
  unexpected_end: boolean;
}

export interface ResultRow {
  schema_version: 1;
  run_id: string;
  /** The model's label in models.yaml (what reports show). */
  model: string;
  /** The id sent to the endpoint. */
  model_id: string;
  provider: string;
  case_id: string;
  case_revision: string;
  category: Category;
  difficulty: Difficulty;
  title?: string;
  seed: number | null;
  messages: ChatMessage[];
  content: string;
  reasoning: string;
  tool_calls: ToolCall[];
  /** Every turn of a multi-step tool script, model and scripted tool results alike. */
  transcript?: ChatMessage[];
  finish_reason: FinishReason;
  timings: RowTimings;
  usage: TokenUsage;
  cost_usd: number | null;
  grade: GradeOutcome;
  /** Which graders graded this row (`@crucibleforge/cases` GRADER_VERSION); absent on rows graded before graders were versioned. */
  grader_version?: string;
  /** Set when `crucibleforge regrade` re-graded the stored reply: what the row said before. */
  regraded_from?: { status: GradeOutcome['status']; reason: string; grader_version: string | null; at: string };
  judge?: JudgeRecord;
  overflow?: { happened: boolean; recovered: boolean; budget: number };
  /** transport / provider error class when the request itself failed */
  error_class?: string;
  /** Every request this case sent, the faults met on the way and the waits before each retry. */
  attempts?: RowAttempts;
  /** A reply stream that broke its framing (events dropped, bytes that were not UTF-8, an end without finish). */
  stream?: StreamDamage;
  started_at: string;
  finished_at: string;
}

/** One measured round of a speed run (warm-ups excluded): which prompt it sent and what it measured. */
export interface SpeedRound {
  /** The speed prompt's name: rounds of the same prompt are repeats of one measurement. */
  prompt: string;
  ttft_s: number | null;
  decode_tps: number | null;
  prefill_tps: number | null;
}

/** Medians of one model's speed run, as the reporter shows them. */
export interface SpeedSummary {
  model: string;
  ttft_s: number | null;
  decode_tps: number | null;
  prefill_tps: number | null;
  plausibility?: { confidence: 'HIGH' | 'MEDIUM' | 'LOW' | 'SUSPICIOUS' | 'UNKNOWN'; reasons: string[] };
  /**
   * The successful single-stream rounds behind the medians, in the order they ran. Their spread is the
   * measurement noise `compare` weighs a speed change against; absent in summaries written before it was kept.
   */
  rounds?: SpeedRound[];
}

export interface RunManifest {
  schema_version: 1;
  run_id: string;
  created_at: string;
  tool_version: string;
  profile: string;
  models: { label: string; model_id: string; provider: string }[];
  cases: { id: string; revision: string; seed: number | null }[];
  seed: number;
  judge: JudgeIdentity | null;
}

/** Pairwise comparison of models on the same prompts, judged in both orders (judge package produces it). */
export interface PairwiseSummary {
  models: string[];
  pairs: {
    a: string;
    b: string;
    wins: number;
    ties: number;
    losses: number;
    /** (wins + ties/2) / total for `a` */
    win_rate: number;
    ci95: [number, number];
  }[];
  /** Bradley–Terry strengths on an Elo-like scale (1000 = average). */
  ratings: { model: string; rating: number }[];
  judge: JudgeIdentity | null;
  /** Games that entered the tallies (judge errors excluded). */
  games?: number;
  /** Games skipped because either order gave no verdict. */
  judge_errors?: number;
  /** Ties that came from the two orders naming opposite winners. */
  position_bias_ties?: number;
}
