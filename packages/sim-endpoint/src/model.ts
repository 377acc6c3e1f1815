import type { ReasoningEncoding, SimAnswer, SimModelOptions, UsagePlacement } from './types';

export const DEFAULT_ANSWER: SimAnswer = { content: 'This is a simulated answer from the CrucibleForge sim endpoint.' };

/** Milliseconds between two `: loading model` comments. */
export const LOADING_COMMENT_MS = 50;

/** A model's options with every default filled in. */
export interface ResolvedModel {
  options: SimModelOptions;
  id: string;
  first_token_base_ms: number;
  prefill_tps: number;
  decode_tps: number;
  tokens_per_event: number;
  reasoning_encoding: ReasoningEncoding;
  usage_placement: UsagePlacement;
  llamacpp_timings: boolean;
  role_chunk: boolean;
  crlf: boolean;
  keep_alive_ms: number;
  loading_comments: number;
  cached_tokens: number;
  cut_at_max_tokens: boolean;
}

export function resolveModel(options: SimModelOptions): ResolvedModel {
  return {
    options,
    id: options.id,
    first_token_base_ms: options.first_token_base_ms ?? 20,
    prefill_tps: options.prefill_tps ?? 2000,
    decode_tps: options.decode_tps ?? 100,
    tokens_per_event: options.tokens_per_event ?? 1,
    reasoning_encoding: options.reasoning_encoding ?? 'reasoning_content',
    usage_placement: options.usage_placement ?? 'separate_chunk',
    llamacpp_timings: options.llamacpp_timings ?? false,
    role_chunk: options.role_chunk ?? true,
    crlf: options.crlf ?? false,
    keep_alive_ms: options.keep_alive_ms ?? 0,
    loading_comments: options.loading_comments ?? 0,
    cached_tokens: options.cached_tokens ?? 0,
    cut_at_max_tokens: options.cut_at_max_tokens ?? true,
  };
}

/** ms from receipt to the first token: cold-load comments, then base + prompt_tokens / prefill_tps. */
export function firstTokenDelayMs(model: ResolvedModel, promptTokens: number): number {
  const uncached = Math.max(0, promptTokens - model.cached_tokens);
  return model.loading_comments * LOADING_COMMENT_MS + model.first_token_base_ms + (uncached / model.prefill_tps) * 1000;
}
