import { finiteNumber as num, jsonObject as obj, type FinishReason, type JsonObject as Json, type TokenUsage } from '@crucibleforge/core';
import type { ServerTimings } from './types';

/** OpenAI-style `usage` (with prompt/completion details and OpenRouter's `cost`) → TokenUsage. */
export function parseUsage(raw: unknown): TokenUsage | null {
  const usage = obj(raw);
  if (!usage) return null;
  return {
    prompt_tokens: num(usage.prompt_tokens),
    completion_tokens: num(usage.completion_tokens),
    reasoning_tokens: num(obj(usage.completion_tokens_details)?.reasoning_tokens),
    cached_tokens: num(obj(usage.prompt_tokens_details)?.cached_tokens),
    cost_usd: num(usage.cost),
  };
}

function rate(tokens: number | null, seconds: number | null): number | null {
  return tokens !== null && seconds !== null && seconds > 0 ? tokens / seconds : null;
}

/** llama.cpp `timings` (ms) → ServerTimings (s). */
export function parseLlamaTimings(raw: unknown): ServerTimings | null {
  const t = obj(raw);
  if (!t) return null;
  const promptMs = num(t.prompt_ms);
  const predictedMs = num(t.predicted_ms);
  const promptN = num(t.prompt_n);
  const predictedN = num(t.predicted_n);
  const promptS = promptMs === null ? null : promptMs / 1000;
  const predictedS = predictedMs === null ? null : predictedMs / 1000;
  return {
    source: 'llamacpp',
    prompt_tokens: promptN,
    cached_tokens: num(t.cache_n),
    prompt_s: promptS,
    prefill_tps: num(t.prompt_per_second) ?? rate(promptN, promptS),
    predicted_tokens: predictedN,
    predicted_s: predictedS,
    decode_tps: num(t.predicted_per_second) ?? rate(predictedN, predictedS),
    ttft_s: null,
    draft_tokens: num(t.draft_n),
    draft_accepted: num(t.draft_n_accepted),
  };
}

/** LM Studio `stats` (seconds already) → ServerTimings. */
export function parseLmStudioStats(raw: unknown): ServerTimings | null {
  const s = obj(raw);
  if (!s) return null;
  const tps = num(s.tokens_per_second);
  const ttft = num(s.time_to_first_token);
  if (tps === null && ttft === null) return null;
  return {
    source: 'lmstudio',
    prompt_tokens: null,
    cached_tokens: null,
    prompt_s: null,
    prefill_tps: null,
    predicted_tokens: null,
    predicted_s: num(s.generation_time),
    decode_tps: tps,
    ttft_s: ttft,
    draft_tokens: num(s.total_draft_tokens_count),
    draft_accepted: num(s.accepted_draft_tokens_count),
  };
}

const FINISH: Record<string, FinishReason> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  content_filter: 'content_filter',
  error: 'error',
  max_tokens: 'length',
  eos: 'stop',
  end_turn: 'stop',
  stop_sequence: 'stop',
};

/** Provider finish reasons → the core union; an unknown non-empty value counts as `stop`. */
export function mapFinishReason(raw: unknown): FinishReason {
  if (typeof raw !== 'string' || raw.length === 0) return null;
  return FINISH[raw] ?? 'stop';
}

/** One tool-call fragment of a delta, normalised. */
export interface ToolFragment {
  index: number;
  id?: string;
  name?: string;
  arguments: string;
}

export function toolFragments(raw: unknown): ToolFragment[] {
  if (!Array.isArray(raw)) return [];
  const out: ToolFragment[] = [];
  for (const [position, item] of raw.entries()) {
    const call = obj(item);
    if (!call) continue;
    const fn = obj(call.function);
    const fragment: ToolFragment = {
      index: num(call.index) ?? position,
      arguments: typeof fn?.arguments === 'string' ? fn.arguments : '',
    };
    if (typeof call.id === 'string' && call.id.length > 0) fragment.id = call.id;
    if (typeof fn?.name === 'string' && fn.name.length > 0) fragment.name = fn.name;
    out.push(fragment);
  }
  return out;
}

/** The text of an in-stream error frame (`{"error": {...}}` or `{"error": "..."}`), or null. */
export function streamErrorMessage(chunk: Json): string | null {
  const error = chunk.error;
  if (error === undefined || error === null) return null;
  if (typeof error === 'string') return error;
  const e = obj(error);
  const message = e && typeof e.message === 'string' ? e.message : JSON.stringify(error);
  return message;
}

export { obj as asObject };
