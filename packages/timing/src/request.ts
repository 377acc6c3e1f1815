import type { ChatMessage, ChatRequest } from '@crucibleforge/core';
import { mergeBody, reasoningSwitch } from './reasoning';
import type { ProviderKind } from './types';

function wireMessage(message: ChatMessage): Record<string, unknown> {
  const out: Record<string, unknown> = { role: message.role, content: message.content };
  if (message.tool_calls && message.tool_calls.length > 0) {
    out.tool_calls = message.tool_calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  if (message.tool_call_id !== undefined) out.tool_call_id = message.tool_call_id;
  if (message.name !== undefined) out.name = message.name;
  return out;
}

/**
 * The streaming chat-completions body for one request: always `stream: true` with
 * `stream_options.include_usage`; then the caller's extra body; then the reasoning switch for the
 * provider when `request.reasoning` is `on` or `off`.
 */
export function buildRequestBody(
  model: string,
  request: ChatRequest,
  providerKind: ProviderKind = 'generic',
  extraBody?: Record<string, unknown>,
): Record<string, unknown> {
  const base: Record<string, unknown> = {
    model,
    messages: request.messages.map(wireMessage),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools && request.tools.length > 0) base.tools = request.tools;
  if (request.tool_choice !== undefined) base.tool_choice = request.tool_choice;
  if (request.max_tokens !== undefined) base.max_tokens = request.max_tokens;
  if (request.temperature !== undefined) base.temperature = request.temperature;
  if (request.prompt_cache === false && providerKind === 'llamacpp') base.cache_prompt = false;
  if (request.json_schema) {
    base.response_format = {
      type: 'json_schema',
      json_schema: { name: request.json_schema.name, schema: request.json_schema.schema, strict: true },
    };
  }
  const reasoning = request.reasoning ? reasoningSwitch(providerKind, request.reasoning) : undefined;
  return mergeBody(base, extraBody, reasoning, { model, stream: true });
}
