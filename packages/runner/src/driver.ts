import type { Category, ChatMessage, Difficulty, FinishReason, GradeOutcome, ToolCall, ToolDefinition } from '@crucibleforge/core';
import type { Sandbox } from '@crucibleforge/sandbox';

/** A case as the planner sees it, before a seed is applied. */
export interface PlannedCase {
  id: string;
  revision: string;
  category: Category;
  difficulty: Difficulty;
  title?: string;
  /** Seeded cases take the run's seed; others are run with seed null. */
  seeded: boolean;
  min_context: number | null;
  /** The case's own reply budget (before any reasoning factor). */
  max_tokens: number;
  /** For the cost estimate: characters of everything sent before the first reply. */
  prompt_chars: number;
  /** Model calls at most (tool-script turns, user turns). */
  turns: number;
}

/** A case made concrete for one seed: exactly what is sent, and what grading needs. */
export interface MaterializedCase {
  /** System and first user message. */
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  /** Default: the model's temperature from models.yaml. */
  temperature?: number;
  /** Present for judged cases: what the judge compares, frozen into the row. */
  judge_input?: { question: string; reference: string; facts?: string[]; focus?: string };
  /** The driver's own data (the concrete case, the derived answer, …). */
  state: unknown;
}

/** After a reply: done, or the messages to send next (scripted tool results, the next user turn). */
export type NextStep = { done: true } | { done: false; messages: ChatMessage[] };

/** The runner never lets one case make more model calls than this, whatever the driver says. */
export const MAX_CASE_TURNS = 30;

/** What the model produced over all turns, as a grader sees it (content only; reasoning is never graded). */
export interface FinalReply {
  content: string;
  /** Calls of every assistant turn, in order. */
  tool_calls: ToolCall[];
  /** Calls per assistant turn. */
  tool_calls_by_turn: ToolCall[][];
  transcript: ChatMessage[];
  finish_reason: FinishReason;
}

/**
 * Where cases come from and how they are graded. The default drives @crucibleforge/cases; a custom harness
 * can supply its own.
 */
export interface CaseDriver {
  /** Which graders `grade` applies (recorded in every row; `regrade` writes it beside a re-grade). */
  graderVersion?: string;
  plan(selection: { profile: string; categories: Category[] | null }): Promise<PlannedCase[]>;
  materialize(planned: PlannedCase, seed: number | null, world: { sandbox: () => Promise<Sandbox> }): Promise<MaterializedCase>;
  /** What to send after the model's latest reply (the transcript ends with it). */
  next(materialized: MaterializedCase, transcript: ChatMessage[]): NextStep;
  grade(materialized: MaterializedCase, final: FinalReply, world: { sandbox: () => Promise<Sandbox> }): Promise<GradeOutcome>;
}
