import type { Category, ChatMessage, Difficulty, FinishReason, ToolCall, ToolDefinition } from '@crucibleforge/core';
import type { Sandbox } from '@crucibleforge/sandbox';
import type { CaseDef, Reference } from './schema/case';
import type { ToolScript } from './schema/common';
import type { Grader } from './schema/graders';

/**
 * A case ready to send: placeholders filled from the seed's parameters and derived vars, the haystack
 * built, the reference answer known. Everything a runner, a grader and the judge need.
 */
export interface ConcreteCase {
  id: string;
  revision: string;
  title: string;
  category: Category;
  difficulty: Difficulty;
  tags: string[];
  /** The seed the variant was drawn with; null for a case without params. */
  seed: number | null;
  system: string | null;
  /** User messages in order (a single-turn case has one). */
  turns: string[];
  tools: ToolDefinition[];
  tool_script: ToolScript | null;
  max_tokens: number;
  min_context: number | null;
  temperature: number;
  grader: Grader;
  reference: Reference;
  /** Drawn parameters and derived vars (empty for unseeded cases). */
  params: Record<string, unknown>;
  vars: Record<string, unknown>;
  /** Estimated prompt tokens (characters / 4) of system + turns + tools. */
  prompt_tokens: number;
  /** The definition it came from. */
  def: CaseDef;
}

/** What a grader reads: the content channel (never reasoning), tool calls, and the transcript of a multi-turn case. */
export interface GradeInput {
  content: string;
  /** Calls of every assistant turn, in order. */
  tool_calls?: ToolCall[];
  /** Calls per assistant turn (multi-step tool scripts). */
  tool_calls_by_turn?: ToolCall[][];
  finish_reason?: FinishReason;
  /** The whole conversation including the final assistant message (multi-turn and tool scripts). */
  transcript?: ChatMessage[];
}

export interface GradeContext {
  /** Needed only by the code grader. */
  sandbox?: Sandbox;
  /** A calibrated wall limit for this case (see calibrateCase); overrides the case's own. */
  timeLimitMs?: number;
  signal?: AbortSignal;
}
