import type { ChatReply, ChatRequest, Clock, FetchLike, FinishReason, TokenUsage } from '@crucibleforge/core';

/** Which server families an endpoint can be; the kind decides the reasoning switch (integrations §4.3). */
export const PROVIDER_KINDS = ['lmstudio', 'ollama', 'llamacpp', 'vllm', 'openrouter', 'deepseek', 'openai', 'generic'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** Milliseconds. `connectMs` bounds request → response headers; the others are described in the README. */
export interface TimingTimeouts {
  /** Request handed to fetch → response headers. */
  connectMs: number;
  /** Request handed to fetch → first token-bearing event (SSE comments do not count). */
  firstTokenMs: number;
  /** Longest silence between two token-bearing events once the first token arrived. */
  gapMs: number;
  /** Whole request. */
  totalMs: number;
}

export const DEFAULT_TIMEOUTS: TimingTimeouts = {
  connectMs: 30_000,
  firstTokenMs: 300_000,
  gapMs: 120_000,
  totalMs: 1_800_000,
};

/** One endpoint and model, and how to reach it: what streamChat, the timed completer and the speed benchmark share. */
export interface EndpointOptions {
  /** OpenAI-compatible base URL including `/v1`, e.g. http://127.0.0.1:1234/v1 */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Decides the reasoning switch (default generic). */
  providerKind?: ProviderKind;
  fetch?: FetchLike;
  clock?: Clock;
  timeouts?: Partial<TimingTimeouts>;
}

export interface StreamChatOptions extends EndpointOptions {
  request: ChatRequest;
  signal?: AbortSignal;
  /** Extra request-body fields (merged; `chat_template_kwargs` one level deep). */
  extraBody?: Record<string, unknown>;
  /** Buffer typed events for iteration (default true). Set false when only `result` is used. */
  events?: boolean;
}

/** Server-reported timings (llama.cpp `timings`, LM Studio `stats`), in the client's units. */
export interface ServerTimings {
  source: 'llamacpp' | 'lmstudio';
  prompt_tokens: number | null;
  cached_tokens: number | null;
  prompt_s: number | null;
  prefill_tps: number | null;
  predicted_tokens: number | null;
  predicted_s: number | null;
  decode_tps: number | null;
  ttft_s: number | null;
  /** Speculative decoding, when the server says. */
  draft_tokens: number | null;
  draft_accepted: number | null;
}

/** Client vs server, as ratios client ÷ server (null when one side is missing). */
export interface ServerComparison {
  decode_ratio: number | null;
  ttft_ratio: number | null;
}

/** Distribution of the times between consecutive token-bearing events (event gaps, not per-token latency). */
export interface GapStats {
  n: number;
  mean_s: number | null;
  p50_s: number | null;
  p90_s: number | null;
  p99_s: number | null;
  max_s: number | null;
}

export type TokenSource = 'usage' | 'server' | 'estimate';
export type PrefillSource = 'server' | 'ttft';

/** The measurements of one request (all times in seconds from t0 = request handed to fetch). */
export interface RequestTimings {
  ttfb_s: number | null;
  ttft_s: number | null;
  ttft_reasoning_s: number | null;
  ttft_content_s: number | null;
  /** ttft_content − ttft (time spent thinking before the answer). */
  think_s: number | null;
  e2e_s: number | null;
  /** t_last_token − t_first_token. */
  decode_s: number | null;
  decode_tps: number | null;
  prefill_s: number | null;
  prefill_source: PrefillSource | null;
  prefill_tps: number | null;
  gaps: GapStats;
  /** Tokens credited to the first token-bearing event (N_first of the decode formula). */
  first_event_tokens: number | null;
  prompt_tokens: number | null;
  cached_tokens: number | null;
  uncached_prompt_tokens: number | null;
  completion_tokens: number | null;
  reasoning_tokens: number | null;
  token_source: TokenSource;
  /** The client's own estimate (≈4 characters per token, at least one per token-bearing event). */
  estimated_completion_tokens: number;
  estimated_reasoning_tokens: number;
  /** Reported and estimated completion (or reasoning) tokens differ by more than 10 %. */
  usage_mismatch: boolean;
  server_timings: ServerTimings | null;
  server_comparison: ServerComparison | null;
  /** A server-reported figure differs from the client's by more than 20 %. */
  server_mismatch: boolean;
  events: { total: number; token_bearing: number; comments: number; malformed: number };
}

export interface TimedCompletion extends RequestTimings {
  reply: ChatReply;
  requested_model: string;
  /** The model named by the response chunks (null when none was named). */
  served_model: string | null;
  /** The response named a different model than the one requested. */
  wrong_model: boolean;
  finish_reason: FinishReason;
  /**
   * Whether the stream arrived whole. `ok` false: a `data:` event was not JSON (its text is missing from the
   * reply), bytes were not UTF-8, or the body ended before a finish_reason / `[DONE]`. The reply is then not
   * the model's whole answer; a benchmark should not grade it.
   */
  stream_integrity: StreamIntegrity;
  /** Human-readable notes: flags explained, malformed events skipped, ... */
  warnings: string[];
}

export interface StreamIntegrity {
  ok: boolean;
  dropped_events: number;
  decode_errors: number;
  unexpected_end: boolean;
}

/** What an error keeps of a request that did not complete. */
export interface PartialTimings {
  elapsed_s: number;
  headers_s: number | null;
  ttfb_s: number | null;
  ttft_s: number | null;
  ttft_reasoning_s: number | null;
  ttft_content_s: number | null;
  last_token_s: number | null;
  token_events: number;
  content_chars: number;
  reasoning_chars: number;
  served_model: string | null;
}

/** Typed events of one streamed request; `at_s` is seconds since t0. */
export type TimingEvent =
  | { type: 'request-start'; at_s: 0 }
  | { type: 'response-headers'; at_s: number; status: number; content_type: string | null }
  | { type: 'comment'; at_s: number; text: string }
  | { type: 'reasoning-delta'; at_s: number; text: string }
  | { type: 'text-delta'; at_s: number; text: string }
  | { type: 'tool-call-delta'; at_s: number; index: number; id?: string; name?: string; arguments: string }
  | { type: 'usage'; at_s: number; usage: TokenUsage }
  | { type: 'server-timings'; at_s: number; timings: ServerTimings }
  | { type: 'finish'; at_s: number; finish_reason: FinishReason }
  | { type: 'response-end'; at_s: number };

/** What `streamChat` returns: iterate it for events (once), await `result` for the whole measurement. */
export interface TimedStream extends AsyncIterable<TimingEvent> {
  readonly result: Promise<TimedCompletion>;
  /** Cancels the HTTP request; `result` rejects with TIMING_ABORTED. */
  abort(reason?: string): void;
}
