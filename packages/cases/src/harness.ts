/**
 * The result row a report reads, from a case, what was sent, the reply, its timings and its grade: the glue a
 * custom harness needs (the judge's input is `judgeInputFor`, in planned.ts). The runner builds its rows with it.
 */
import {
  EMPTY_USAGE,
  type ChatMessage,
  type ChatReply,
  type GradeOutcome,
  type JudgeRecord,
  type ResultRow,
  type RowAttempts,
  type RowTimings,
  type StreamDamage,
  type TokenUsage,
} from '@crucibleforge/core';
import { GRADER_VERSION } from './grade';
import type { ConcreteCase } from './types';

/** The fields of a row that name the case: a `MaterializedCase` (or any case-shaped value) fits. */
export interface CaseIdentity {
  id: string;
  revision: string;
  category: ConcreteCase['category'];
  difficulty: ConcreteCase['difficulty'];
  title?: string;
  /** The variant's seed (a materialised case carries it); `seed` of the input wins. */
  seed?: number | null;
}

/** What the model produced: a core `ChatReply` fits, plus the transcript of a multi-turn case. */
export type RowReply = Partial<Omit<ChatReply, 'model'>> & { transcript?: ChatMessage[] };

export interface ResultRowInput {
  run_id: string;
  /** The model's label (what reports show). */
  model: string;
  /** The id sent to the endpoint (default: `model`). */
  model_id?: string;
  provider: string;
  case: CaseIdentity;
  seed?: number | null;
  /** What was sent (system and first user message). */
  messages?: readonly ChatMessage[];
  reply?: RowReply;
  /** A timing client's result fits (`ttft_s`, `ttft_content_s`, `e2e_s`, `decode_tps`; the rest is ignored). */
  timings?: Partial<RowTimings>;
  /** Default: `reply.usage`. */
  usage?: Partial<TokenUsage>;
  /** Default: the usage's `cost_usd`. */
  cost_usd?: number | null;
  grade: GradeOutcome;
  /** Which graders decided `grade` (default: this package's `GRADER_VERSION`, what `grade` uses); null leaves it out. */
  grader_version?: string | null;
  judge?: JudgeRecord;
  /** Transport / provider error class when the request itself failed. */
  error_class?: string;
  /** Every request the case sent, the faults met and the waits before each retry (the runner's retry loop). */
  attempts?: RowAttempts;
  /** A reply stream that arrived damaged (events dropped, bad UTF-8, an end without finish). */
  stream?: StreamDamage;
  started_at: Date | string;
  /** Default: `started_at`. */
  finished_at?: Date | string;
}

const iso = (t: Date | string) => (typeof t === 'string' ? t : t.toISOString());
const orNull = <T>(v: T | null | undefined): T | null => (v === undefined ? null : v);

/** One `ResultRow` (core's schema_version 1) from a case, what was sent, the reply, its timings and its grade. */
export function resultRow(input: ResultRowInput): ResultRow {
  const c = input.case;
  const reply = input.reply ?? {};
  const usage: TokenUsage = { ...EMPTY_USAGE, ...(input.usage ?? reply.usage ?? {}) };
  const t = input.timings ?? {};
  return {
    schema_version: 1,
    run_id: input.run_id,
    model: input.model,
    model_id: input.model_id ?? input.model,
    provider: input.provider,
    case_id: c.id,
    case_revision: c.revision,
    category: c.category,
    difficulty: c.difficulty,
    ...(c.title === undefined ? {} : { title: c.title }),
    seed: input.seed !== undefined ? input.seed : (c.seed ?? null),
    messages: [...(input.messages ?? [])],
    content: reply.content ?? '',
    reasoning: reply.reasoning ?? '',
    tool_calls: [...(reply.tool_calls ?? [])],
    ...(reply.transcript ? { transcript: [...reply.transcript] } : {}),
    finish_reason: reply.finish_reason ?? null,
    timings: { ttft_s: orNull(t.ttft_s), ttft_content_s: orNull(t.ttft_content_s), e2e_s: orNull(t.e2e_s), decode_tps: orNull(t.decode_tps) },
    usage,
    cost_usd: input.cost_usd !== undefined ? input.cost_usd : usage.cost_usd,
    grade: input.grade,
    ...(input.grader_version === null ? {} : { grader_version: input.grader_version ?? GRADER_VERSION }),
    ...(input.judge ? { judge: input.judge } : {}),
    ...(input.error_class ? { error_class: input.error_class } : {}),
    ...(input.attempts ? { attempts: input.attempts } : {}),
    ...(input.stream ? { stream: input.stream } : {}),
    started_at: iso(input.started_at),
    finished_at: iso(input.finished_at ?? input.started_at),
  };
}
