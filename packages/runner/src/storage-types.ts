import type { JudgeInput } from '@crucibleforge/cases';
import type { Category, GradeOutcome, JudgeRecord, ResultRow, RowKey, RunManifest } from '@crucibleforge/core';

/** Why a model stopped before finishing its cases. */
export type StopReason =
  | 'preflight-failed'
  | 'wrong-model'
  /** Connected, but no token came in time (at the preflight, or three cases in a row). */
  | 'stalled'
  /** Nothing answers at the base URL (at the preflight, or three cases in a row). */
  | 'endpoint-down'
  | 'endpoint-failures'
  | 'budget'
  | 'lease-failed'
  | 'lease-lost'
  | 'stopped';

/** A result row as the runner stores it: the core row plus audit fields. */
export interface RunRow extends ResultRow {
  /** Unique per attempt; a judge verdict names the attempt it judged. */
  attempt_id: string;
  /** Tokens requested for the (first) reply. */
  max_tokens_sent: number | null;
  /** The error text when `error_class` is set. */
  error_message?: string;
  /** For judged cases: what the judge needs, frozen at generation time. */
  judge_input?: JudgeInput;
  /** Reasoning-overflow details (the first attempt that ran out of budget). */
  recovery?: {
    mode: 'reasoning-off' | 'continue' | null;
    attempts: number;
    first: { finish_reason: string | null; completion_tokens: number | null; reasoning_tokens: number | null; reasoning_chars: number };
    error?: string;
  };
}

/** One line of rows.jsonl. Never rewritten: later records supersede earlier ones when folded. */
export type LogRecord =
  | { kind: 'row'; row: RunRow }
  | { kind: 'judge'; key: RowKey; attempt_id: string; judge: JudgeRecord; grade: GradeOutcome }
  /** `crucibleforge regrade`: the stored reply graded again by newer graders (the old grade stays in the log). */
  | { kind: 'regrade'; key: RowKey; attempt_id: string; grade: GradeOutcome; grader_version: string; at: string }
  | { kind: 'model-stopped'; model: string; reason: StopReason; message: string; at: string }
  | { kind: 'session'; event: 'start' | 'end'; at: string; resumed: boolean; tool_version: string };

/** Settings of one model at run time (never an API key). */
export interface ManifestModel {
  label: string;
  model_id: string;
  provider: string;
  kind: string;
  base_url: string;
  concurrency: number;
  prices: { input: number; cached_input?: number | undefined; output: number; reasoning?: number | undefined } | null;
  reasoning: 'auto' | 'on' | 'off';
  context_length: number | null;
}

/** manifest.json: the core RunManifest plus what resume and recover need. Written once. */
export interface RunManifestFile extends RunManifest {
  runner: {
    /** Same fingerprint = the same command; re-running it resumes an unfinished run. */
    fingerprint: string;
    categories: Category[] | null;
    budget_usd: number | null;
    cases_dir: string;
    config_file: string | null;
    models: ManifestModel[];
  };
}
