/**
 * The public contract of @crucibleforge/sim-endpoint. The timing client, judge, runner, GUI and demo
 * tests code against these types; change them only together with their users.
 */
import type { ChatMessage, ToolDefinition } from '@crucibleforge/core';

/** How the reasoning channel is streamed, as seen in the wild. */
export type ReasoningEncoding =
  | 'reasoning_content' // delta.reasoning_content (DeepSeek, llama.cpp)
  | 'reasoning' // delta.reasoning (OpenRouter, newer vLLM, Ollama)
  | 'think_tags'; // inline <think>…</think> at the start of delta.content

/** Where token usage goes in a stream. */
export type UsagePlacement =
  | 'separate_chunk' // OpenAI: a final chunk with choices: [] and usage, only when stream_options.include_usage
  | 'finish_chunk' // llama.cpp: usage (and `timings`) on the chunk that carries finish_reason
  | 'none';

/** What the simulated model says. Text is split into tokens by `simTokenize`. */
export interface SimAnswer {
  content?: string;
  reasoning?: string;
  tool_calls?: { name: string; arguments: string | Record<string, unknown> }[];
}

/** The request as the answer function sees it. */
export interface SimRequestView {
  model: string;
  messages: ChatMessage[];
  tools: ToolDefinition[];
  max_tokens: number | null;
  stream: boolean;
  /** True when the request asked to switch reasoning off by any provider's switch. */
  reasoning_off: boolean;
  /** 0-based index of this request among all requests to this server. */
  index: number;
  /** 0-based index of this request among the requests to this model (what `faults: [...]` is indexed by). */
  model_index?: number;
  body: Record<string, unknown>;
}

/** What an answer function gets besides the request. */
export interface AnswerContext {
  /** Aborts when the client goes away or the endpoint closes: a slow answer function stops waiting then. */
  signal: AbortSignal;
}

/**
 * An answer function's refusal: the request fails with this status and an OpenAI error body, or, when a stream
 * is already open (keep-alive comments went out while the function decided), with one in-stream error frame.
 */
export interface SimAnswerError {
  error: { status: 400 | 500; message: string };
}

export type AnswerFn = (
  request: SimRequestView,
  context: AnswerContext,
) => SimAnswer | SimAnswerError | Promise<SimAnswer | SimAnswerError>;

export type SimFault =
  /** `retry_after_date`: send Retry-After as an HTTP date (now + retry_after_s) instead of seconds. */
  | { kind: 'status'; status: 401 | 404 | 429 | 500 | 503; retry_after_s?: number; retry_after_date?: boolean; message?: string }
  | { kind: 'reset'; after_tokens: number } // destroy the socket mid-stream
  | { kind: 'reset_before_response' } // accept the request, then destroy the socket before any header
  | { kind: 'stall'; after_tokens: number; stall_ms: number } // no bytes for stall_ms, then continue
  | { kind: 'malformed_chunk'; after_tokens: number } // one extra `data:` line that is not JSON
  | { kind: 'corrupted_chunk'; after_tokens: number } // the next token event is sent cut off: its text is lost
  | { kind: 'bad_utf8'; after_tokens: number } // one `data:` event whose text carries bytes that are not UTF-8
  | { kind: 'unexpected_end'; after_tokens: number } // the body ends cleanly there: no finish chunk, no [DONE]
  | { kind: 'not_sse' }; // 200 with text/html instead of an event stream

export interface SimModelOptions {
  id: string;
  /** Fixed part of the first-token delay, ms (default 20). */
  first_token_base_ms?: number;
  /** Prompt tokens per second for the prefill part of the delay (default 2 000). */
  prefill_tps?: number;
  /** Decode tokens per second (default 100). */
  decode_tps?: number;
  /** Tokens carried by each SSE event (default 1; >1 looks like speculative decoding). */
  tokens_per_event?: number;
  reasoning_encoding?: ReasoningEncoding;
  /** Default 'separate_chunk'. */
  usage_placement?: UsagePlacement;
  /** Send a llama.cpp-style `timings` object (with usage on the finish chunk). */
  llamacpp_timings?: boolean;
  /** Emit a leading role-only chunk (default true). */
  role_chunk?: boolean;
  /** CRLF line ends (default false). */
  crlf?: boolean;
  /**
   * `: keep-alive` comment every N ms while waiting for the first token (default off); on a stream also while an
   * answer function is still deciding (the stream then opens at the first comment).
   */
  keep_alive_ms?: number;
  /** `: loading model` comments sent before the first token, one per 50 ms, as a cold load would (default 0). */
  loading_comments?: number;
  /** The model name responses carry (default: the requested id). Set another to simulate a wrong model. */
  respond_as?: string;
  context_length?: number;
  /** Cut the answer at the request's max_tokens, finish_reason `length` (default true); false sends it whole. */
  cut_at_max_tokens?: boolean;
  /** Cached prompt tokens to report (usage.prompt_tokens_details.cached_tokens / timings.cache_n). */
  cached_tokens?: number;
  /** The answer: a fixed answer, or a function of the request (default: a short fixed sentence). */
  answer?: SimAnswer | AnswerFn;
  /** Faults to apply, one per request in order (undefined entries = no fault); or a function. */
  faults?: (SimFault | undefined)[] | ((request: SimRequestView) => SimFault | undefined);
}

/** The server-side truth of one request, on the same performance.now() clock as a client in this process. */
export interface SimTruth {
  index: number;
  model: string;
  stream: boolean;
  received_ms: number;
  prompt_tokens: number;
  completion_tokens: number;
  reasoning_tokens: number;
  content_tokens: number;
  tool_call_count: number;
  events: number;
  first_token_ms: number | null;
  first_reasoning_ms: number | null;
  first_content_ms: number | null;
  last_token_ms: number | null;
  finish_reason: string | null;
  fault: SimFault['kind'] | null;
  /** Send time of every token-carrying event (one entry for a non-streaming reply), performance.now(). */
  event_times_ms?: number[];
  /** When the first token was due (receipt + loading + base + prefill), performance.now(); null for errors. */
  first_token_due_ms?: number | null;
  /** The HTTP status the server answered with (200 for streams and replies, else the error status). */
  status?: number;
  /** Set when the client went away (or the server closed) before the response was complete. */
  aborted?: boolean;
}

export interface SimEndpointOptions {
  models: SimModelOptions[];
  /** 0 = a free port (default). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** When set, requests must carry `Authorization: Bearer <api_key>` (else 401). */
  api_key?: string;
}

export interface SimEndpoint {
  /** Base URL including `/v1`, e.g. http://127.0.0.1:40123/v1 */
  url: string;
  port: number;
  /** Truth records, in request order. */
  truth: SimTruth[];
  /** Raw request bodies, in request order. */
  requests: Record<string, unknown>[];
  close(): Promise<void>;
}
