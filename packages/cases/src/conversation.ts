import type { ChatMessage } from '@crucibleforge/core';
import { parseCalls } from './graders/tool-calls';
import { argsProblem, type ParsedCall } from './graders/tool-matchers';
import type { ConcreteCase } from './types';

export const DEFAULT_MAX_TURNS = 10;

type Conversation = Pick<ConcreteCase, 'system' | 'turns' | 'tools' | 'tool_script'>;

/** The first request's messages: the system prompt (if any) and the first user turn. */
export function initialMessages(c: Conversation): ChatMessage[] {
  return [...(c.system ? [{ role: 'system' as const, content: c.system }] : []), { role: 'user', content: c.turns[0] ?? '' }];
}

function resultText(result: unknown): string {
  return typeof result === 'string' ? result : JSON.stringify(result);
}

/** What the scripted world answers to one call, given how often that tool was called before (1-based `nth`). */
function scriptedResult(c: Conversation, call: ParsedCall, nth: number): string {
  const script = c.tool_script;
  if (!c.tools.some((t) => t.function.name === call.name)) return JSON.stringify({ error: `unknown tool: ${call.name}` });
  if (call.args === null) return JSON.stringify({ error: 'arguments are not a valid JSON object' });
  for (const rule of script?.results ?? []) {
    if (rule.tool !== call.name) continue;
    if (rule.call !== undefined && rule.call !== nth) continue;
    if (rule.when && argsProblem({ args: rule.when }, call.args) !== null) continue;
    return resultText(rule.result);
  }
  return resultText(script?.default_result ?? { error: 'no matching record' });
}

/**
 * The tool messages answering the last assistant message's calls, in call order (parallel calls are all
 * answered). Pure: results depend only on the transcript (the n-th call of a tool can get a different
 * result, e.g. a rate-limit error first and data on the retry).
 */
export function scriptedToolResults(c: Conversation, transcript: ChatMessage[]): ChatMessage[] {
  const last = transcript[transcript.length - 1];
  if (!last || last.role !== 'assistant' || !last.tool_calls?.length) return [];
  const earlier = transcript.slice(0, -1).flatMap((m) => (m.role === 'assistant' ? parseCalls(m.tool_calls) : []));
  const seen = new Map<string, number>();
  for (const call of earlier) seen.set(call.name, (seen.get(call.name) ?? 0) + 1);
  return parseCalls(last.tool_calls).map((call) => {
    const nth = (seen.get(call.name) ?? 0) + 1;
    seen.set(call.name, nth);
    return { role: 'tool', tool_call_id: call.id, name: call.name, content: scriptedResult(c, call, nth) };
  });
}

export type NextStep = { done: true } | { done: false; messages: ChatMessage[] };

/**
 * What the runner sends after the model's latest reply (the transcript ends with it): scripted tool results
 * when it called tools and the case has a script, the next user turn when it answered in text and turns
 * remain, otherwise done. Also done after `max_turns` assistant turns.
 */
export function nextMessages(c: Conversation, transcript: ChatMessage[]): NextStep {
  const last = transcript[transcript.length - 1];
  if (!last || last.role !== 'assistant') return { done: true };
  const assistantTurns = transcript.filter((m) => m.role === 'assistant').length;
  if (assistantTurns >= (c.tool_script?.max_turns ?? DEFAULT_MAX_TURNS)) return { done: true };
  if (last.tool_calls?.length) {
    return c.tool_script ? { done: false, messages: scriptedToolResults(c, transcript) } : { done: true };
  }
  const usersSent = transcript.filter((m) => m.role === 'user').length;
  const next = c.turns[usersSent];
  return next === undefined ? { done: true } : { done: false, messages: [{ role: 'user', content: next }] };
}
