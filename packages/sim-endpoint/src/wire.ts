import type { PlannedEvent, Plan } from './plan';
import type { ReasoningEncoding, SimTruth } from './types';

/** The fixed parts every chunk and reply of one request carries. */
export interface ReplyHeader {
  id: string;
  created: number;
  model: string;
}

export interface UsageNumbers {
  prompt_tokens: number;
  cached_tokens: number;
  completion_tokens: number;
  reasoning_tokens: number;
}

/** OpenAI usage object with prompt and completion details. */
export function usageObject(u: UsageNumbers) {
  return {
    prompt_tokens: u.prompt_tokens,
    completion_tokens: u.completion_tokens,
    total_tokens: u.prompt_tokens + u.completion_tokens,
    prompt_tokens_details: { cached_tokens: u.cached_tokens },
    completion_tokens_details: { reasoning_tokens: u.reasoning_tokens },
  };
}

/**
 * llama.cpp `timings` from the server's own send times: prompt_ms = receipt → first token,
 * predicted_ms = first → last token plus the first event's own decode slot.
 */
export function timingsObject(truth: SimTruth, cachedTokens: number, firstEventTokens: number, decodeTps: number) {
  const promptN = Math.max(0, truth.prompt_tokens - cachedTokens);
  const first = truth.first_token_ms ?? truth.received_ms;
  const last = truth.last_token_ms ?? first;
  const promptMs = first - truth.received_ms;
  const predictedN = truth.completion_tokens;
  const predictedMs = predictedN > 0 ? last - first + (firstEventTokens / decodeTps) * 1000 : 0;
  const rate = (n: number, ms: number) => (ms > 0 ? (n / ms) * 1000 : 0);
  return {
    cache_n: cachedTokens,
    prompt_n: promptN,
    prompt_ms: promptMs,
    prompt_per_token_ms: promptN > 0 ? promptMs / promptN : 0,
    prompt_per_second: rate(promptN, promptMs),
    predicted_n: predictedN,
    predicted_ms: predictedMs,
    predicted_per_token_ms: predictedN > 0 ? predictedMs / predictedN : 0,
    predicted_per_second: rate(predictedN, predictedMs),
  };
}

/** The `delta` of one planned event in the model's reasoning encoding. */
export function eventDelta(event: PlannedEvent, encoding: ReasoningEncoding): Record<string, unknown> {
  const delta: Record<string, unknown> = {};
  if (event.reasoning.length > 0) delta[encoding === 'reasoning' ? 'reasoning' : 'reasoning_content'] = event.reasoning;
  if (event.content.length > 0) delta.content = event.content;
  if (event.tool) {
    const { index, id, name, arguments: args } = event.tool;
    delta.tool_calls = [
      id !== undefined
        ? { index, id, type: 'function', function: { name, arguments: args } }
        : { index, function: { arguments: args } },
    ];
  }
  return delta;
}

export function chunk(header: ReplyHeader, delta: Record<string, unknown> | null, finish: string | null, extra: Record<string, unknown> = {}) {
  return {
    id: header.id,
    object: 'chat.completion.chunk',
    created: header.created,
    model: header.model,
    system_fingerprint: 'crucibleforge-sim',
    choices: delta === null ? [] : [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...extra,
  };
}

/** The non-streaming reply body. */
export function completionBody(header: ReplyHeader, plan: Plan, encoding: ReasoningEncoding, extra: Record<string, unknown>) {
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: plan.content.length === 0 && plan.tool_calls.length > 0 ? null : plan.content,
  };
  if (plan.reasoning.length > 0) message[encoding === 'reasoning' ? 'reasoning' : 'reasoning_content'] = plan.reasoning;
  if (plan.tool_calls.length > 0) {
    message.tool_calls = plan.tool_calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  }
  return {
    id: header.id,
    object: 'chat.completion',
    created: header.created,
    model: header.model,
    system_fingerprint: 'crucibleforge-sim',
    choices: [{ index: 0, message, logprobs: null, finish_reason: plan.finish_reason }],
    ...extra,
  };
}

const ERROR_TYPES: Record<number, { type: string; code: string }> = {
  400: { type: 'invalid_request_error', code: 'invalid_request' },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  404: { type: 'invalid_request_error', code: 'model_not_found' },
  429: { type: 'rate_limit_exceeded', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: 'internal_error' },
  503: { type: 'server_error', code: 'service_unavailable' },
};

/** OpenAI error shape: {error: {message, type, param, code}}. */
export function errorBody(status: number, message: string, param: string | null = null) {
  const kind = ERROR_TYPES[status] ?? { type: 'server_error', code: `http_${status}` };
  return { error: { message, type: kind.type, param, code: kind.code } };
}

/** SSE framing: one `data:` frame or one comment line, with LF or CRLF line ends. */
export function sseFormatter(crlf: boolean) {
  const nl = crlf ? '\r\n' : '\n';
  return {
    data: (payload: unknown) => `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}${nl}${nl}`,
    comment: (text: string) => `: ${text}${nl}${nl}`,
  };
}
