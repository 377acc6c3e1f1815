import type { ChatMessage, ChatRole, ToolCall, ToolDefinition } from '@crucibleforge/core';
import type { SimRequestView } from './types';

/** A request body the sim cannot serve: answered with 400 and this message. */
export class BadRequest extends Error {
  constructor(
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
    this.name = 'BadRequest';
  }
}

type Json = Record<string, unknown>;

const ROLES = new Set<string>(['system', 'developer', 'user', 'assistant', 'tool']);

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** OpenAI content may be a string, null, or an array of parts; text parts are joined. */
function contentText(value: unknown, path: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    return value
      .map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : ''))
      .join('');
  }
  throw new BadRequest(`${path}: content must be a string, null or an array of parts`, path);
}

function toolCalls(value: unknown, path: string): ToolCall[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new BadRequest(`${path} must be an array`, path);
  return value.map((raw, i) => {
    const fn = isObject(raw) && isObject(raw.function) ? raw.function : {};
    const args = fn.arguments;
    return {
      id: isObject(raw) && typeof raw.id === 'string' ? raw.id : `call_${i}`,
      name: typeof fn.name === 'string' ? fn.name : '',
      arguments: typeof args === 'string' ? args : args === undefined ? '' : JSON.stringify(args),
    };
  });
}

function message(raw: unknown, i: number): ChatMessage {
  const path = `messages[${i}]`;
  if (!isObject(raw)) throw new BadRequest(`${path} must be an object`, path);
  const role = raw.role;
  if (typeof role !== 'string' || !ROLES.has(role)) {
    throw new BadRequest(`${path}.role must be one of system, developer, user, assistant, tool (got ${JSON.stringify(role)})`, `${path}.role`);
  }
  // OpenAI's newer name for the system message; the view has one role for both.
  const out: ChatMessage = { role: role === 'developer' ? 'system' : (role as ChatRole), content: contentText(raw.content, `${path}.content`) };
  const calls = toolCalls(raw.tool_calls, `${path}.tool_calls`);
  if (calls) out.tool_calls = calls;
  if (typeof raw.tool_call_id === 'string') out.tool_call_id = raw.tool_call_id;
  if (typeof raw.name === 'string') out.name = raw.name;
  return out;
}

function tools(value: unknown): ToolDefinition[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new BadRequest('tools must be an array', 'tools');
  return value.map((raw, i) => {
    if (!isObject(raw) || !isObject(raw.function) || typeof raw.function.name !== 'string') {
      throw new BadRequest(`tools[${i}] must be {type: "function", function: {name, ...}}`, `tools[${i}]`);
    }
    return raw as unknown as ToolDefinition;
  });
}

function maxTokens(body: Json): number | null {
  for (const key of ['max_completion_tokens', 'max_tokens'] as const) {
    const value = body[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      throw new BadRequest(`${key} must be a non-negative integer (got ${JSON.stringify(value)})`, key);
    }
    return value;
  }
  return null;
}

/**
 * True when the body switches reasoning off by any provider's knob (integrations §4.3):
 * `reasoning_effort: "none"`, `chat_template_kwargs.enable_thinking === false`, Ollama `think: false`,
 * OpenRouter `reasoning: {enabled: false}` / `{effort: "none"}`, DeepSeek `thinking: {type: "disabled"}`,
 * or a `/no_think` soft switch in a system or user message.
 */
export function detectReasoningOff(body: Json, messages: readonly ChatMessage[]): boolean {
  if (body.reasoning_effort === 'none') return true;
  if (isObject(body.chat_template_kwargs) && body.chat_template_kwargs.enable_thinking === false) return true;
  if (body.think === false) return true;
  const reasoning = body.reasoning;
  if (isObject(reasoning) && (reasoning.enabled === false || reasoning.effort === 'none')) return true;
  if (reasoning === 'off' || reasoning === 'none') return true;
  if (isObject(body.thinking) && body.thinking.type === 'disabled') return true;
  return messages.some((m) => (m.role === 'user' || m.role === 'system') && m.content?.includes('/no_think') === true);
}

/** Builds the answer function's view of a parsed JSON body; throws BadRequest for an unusable body. */
export function requestView(body: unknown, index: number, modelIndex: number): SimRequestView {
  if (!isObject(body)) throw new BadRequest('the request body must be a JSON object');
  if (typeof body.model !== 'string' || body.model.length === 0) throw new BadRequest('model is required', 'model');
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    throw new BadRequest('messages must be a non-empty array', 'messages');
  }
  const messages = body.messages.map(message);
  return {
    model: body.model,
    messages,
    tools: tools(body.tools),
    max_tokens: maxTokens(body),
    stream: body.stream === true,
    reasoning_off: detectReasoningOff(body, messages),
    index,
    model_index: modelIndex,
    body,
  };
}

/** True when a streaming request asked for the OpenAI-style separate usage chunk. */
export function wantsUsageChunk(body: Json): boolean {
  return isObject(body.stream_options) && body.stream_options.include_usage === true;
}
