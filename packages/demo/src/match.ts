import type { ChatMessage } from '@crucibleforge/core';
import type { ConcreteCase } from '@crucibleforge/cases';

/** The provider switches some clients put into the prompt to turn thinking off. */
const SWITCH_MARKERS = /\s*\/no_think\b|\s*\/nothink\b/g;

function firstUser(messages: readonly ChatMessage[]): string | null {
  const m = messages.find((x) => x.role === 'user');
  return typeof m?.content === 'string' ? m.content : null;
}

function clean(text: string): string {
  return text.replace(SWITCH_MARKERS, '').trim();
}

/**
 * Finds the case a request belongs to. The stable marker is the first user message: the runner and
 * bench-llm send `initialMessages(case)`, whose first user message is the case's first turn (seeded
 * cases: the turn as materialised for the seed). Exact text first (system prompt included when
 * several cases share a first turn), then the same text with reasoning switches such as `/no_think`
 * removed. Returns null for anything else (speed prompts, judge prompts, a case not given).
 */
export function createCaseMatcher(cases: readonly ConcreteCase[]): (messages: readonly ChatMessage[]) => ConcreteCase | null {
  const byTurn = new Map<string, ConcreteCase[]>();
  for (const c of cases) {
    const key = clean(c.turns[0] ?? '');
    byTurn.set(key, [...(byTurn.get(key) ?? []), c]);
  }
  return (messages) => {
    const user = firstUser(messages);
    if (user === null) return null;
    const found = byTurn.get(clean(user));
    if (!found) return null;
    if (found.length === 1) return found[0]!;
    const system = messages.find((m) => m.role === 'system')?.content ?? null;
    return found.find((c) => (c.system ?? null) === system) ?? found[0]!;
  };
}

/** The 0-based assistant turn a request asks for: how many assistant messages it already holds. */
export function assistantTurn(messages: readonly ChatMessage[]): number {
  return messages.filter((m) => m.role === 'assistant').length;
}
