import type { ChatMessage, ToolDefinition } from '@crucibleforge/core';
import type { ChatHistoryItem, ChatModelFunctionCall, ChatModelFunctions } from 'node-llama-cpp';

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * OpenAI-style messages → node-llama-cpp chat history. An assistant turn's tool calls become function-call
 * items carrying the results of the `tool` messages that answer them; consecutive system or user
 * messages stay separate items. The history ends with an empty model turn for the engine to fill.
 */
export function toChatHistory(messages: readonly ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = [];
  const results = new Map<string, string>();
  for (const m of messages) if (m.role === 'tool' && m.tool_call_id) results.set(m.tool_call_id, m.content ?? '');
  for (const m of messages) {
    const text = m.content ?? '';
    if (m.role === 'system') history.push({ type: 'system', text });
    else if (m.role === 'user') history.push({ type: 'user', text });
    else if (m.role === 'assistant') {
      const response: (string | ChatModelFunctionCall)[] = text ? [text] : [];
      for (const call of m.tool_calls ?? []) {
        response.push({ type: 'functionCall', name: call.name, params: parseArguments(call.arguments), result: results.get(call.id) ?? '' });
      }
      history.push({ type: 'model', response });
    } else if (m.role === 'tool' && !m.tool_call_id) {
      // A tool result no call names: keep its text as a user turn rather than drop it.
      history.push({ type: 'user', text });
    }
  }
  history.push({ type: 'model', response: [] });
  return history;
}

/** Tool definitions → node-llama-cpp functions (their JSON schema constrains the arguments by grammar). */
export function toFunctions(tools: readonly ToolDefinition[] | undefined): ChatModelFunctions | undefined {
  if (!tools || tools.length === 0) return undefined;
  const functions: Record<string, { description?: string; params?: never }> = {};
  for (const tool of tools) {
    functions[tool.function.name] = {
      ...(tool.function.description ? { description: tool.function.description } : {}),
      ...(tool.function.parameters ? { params: tool.function.parameters as never } : {}),
    };
  }
  return functions;
}
