import OpenAI from 'openai';
import type { FetchLike } from '@crucibleforge/core';

/**
 * An openai SDK client for one endpoint: no retries (the caller decides), every credential passed
 * explicitly (so the SDK does not fall back to OPENAI_* variables), fetch injected.
 */
export function sdkClient(baseUrl: string, apiKey: string | undefined, fetchFn: FetchLike, timeoutMs: number): OpenAI {
  return new OpenAI({
    baseURL: baseUrl,
    apiKey: apiKey && apiKey.length > 0 ? apiKey : 'no-key',
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    fetch: fetchFn,
    maxRetries: 0,
    timeout: Math.max(1, Math.ceil(timeoutMs)),
    logLevel: 'off',
  });
}

/**
 * Sends a streaming chat-completions request through the SDK and returns the raw Response (status
 * already checked by the SDK: non-2xx statuses throw its APIError). The body is left unread so the
 * caller parses and times the SSE itself.
 */
export function openStream(
  client: OpenAI,
  body: Record<string, unknown>,
  signal: AbortSignal,
  hasKey: boolean,
): Promise<Response> {
  const params = body as unknown as OpenAI.Chat.ChatCompletionCreateParamsStreaming;
  return client.chat.completions
    .create(params, { signal, ...(hasKey ? {} : { headers: { Authorization: null } }) })
    .asResponse();
}
