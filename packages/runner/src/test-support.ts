/**
 * Test helpers (not exported from the package): a tiny in-memory case driver and a fake clock/sleep,
 * so engine tests do not depend on the full case set or wait for real backoffs.
 */
import type { Category, ChatMessage, GradeOutcome, ToolCall, ToolDefinition } from '@crucibleforge/core';
import type { NextStep, PlannedCase } from '@crucibleforge/cases';
import type { CaseDriver } from './driver';

export interface TestCase {
  id: string;
  category?: Category;
  prompt: string;
  /** The content must contain this (word) to pass. */
  expect?: string;
  /** Expected tool names in order (graded instead of `expect`). */
  expectCalls?: string[];
  max_tokens?: number;
  min_context?: number;
  seeded?: boolean;
  judged?: { reference: string; focus?: string };
  tools?: ToolDefinition[];
  /** Scripted tool results by tool name. */
  script?: Record<string, string>;
  followUps?: string[];
}

/** The test driver's materialised case: the case and the prompt it sends. */
interface TestMaterialized {
  c: TestCase;
  prompt: string;
}

export function testDriver(cases: TestCase[], revision = 'r1'): CaseDriver<TestMaterialized> & { materialized: string[] } {
  const byId = new Map(cases.map((c) => [c.id, c]));
  const materialized: string[] = [];
  return {
    materialized,
    async plan({ categories }) {
      return cases
        .filter((c) => !categories || categories.includes(c.category ?? 'math'))
        .map(
          (c): PlannedCase => ({
            id: c.id,
            revision,
            category: c.category ?? 'math',
            difficulty: 'easy',
            title: c.id,
            seeded: c.seeded ?? false,
            long_context: c.min_context !== undefined,
            max_tokens: c.max_tokens ?? 64,
            prompt_chars: c.prompt.length,
            turns: 1 + (c.followUps?.length ?? 0) + (c.script ? 3 : 0),
          }),
        );
    },
    async materialize(planned, seed) {
      const c = byId.get(planned.id)!;
      materialized.push(`${planned.id}@${seed}`);
      return { c, prompt: seed === null ? c.prompt : `${c.prompt} (seed ${seed})` };
    },
    request({ c, prompt }) {
      return {
        messages: [{ role: 'user', content: prompt }],
        ...(c.tools ? { tools: c.tools } : {}),
        ...(c.judged ? { judge_input: { question: prompt, reference: c.judged.reference, ...(c.judged.focus ? { focus: c.judged.focus } : {}) } } : {}),
        min_context: c.min_context ?? null,
      };
    },
    next({ c }, transcript: ChatMessage[]): NextStep {
      const last = transcript.at(-1);
      const calls: ToolCall[] = last?.tool_calls ?? [];
      if (calls.length > 0) {
        if (!c.script || transcript.filter((x) => x.role === 'assistant').length >= 4) return { done: true };
        return { done: false, messages: calls.map((call) => ({ role: 'tool', tool_call_id: call.id, content: c.script?.[call.name] ?? 'unknown tool' })) };
      }
      const usersSent = transcript.filter((x) => x.role === 'user').length;
      const follow = c.followUps?.[usersSent - 1];
      return follow === undefined ? { done: true } : { done: false, messages: [{ role: 'user', content: follow }] };
    },
    async grade({ c }, final): Promise<GradeOutcome> {
      if (c.judged) return { status: 'pending', reason: 'waits for the judge' };
      if (c.expectCalls) {
        const names = final.tool_calls.map((t) => t.name);
        const ok = JSON.stringify(names) === JSON.stringify(c.expectCalls);
        return { status: ok ? 'pass' : 'fail', reason: ok ? 'calls match' : `calls ${names.join(',') || 'none'}` };
      }
      const ok = c.expect !== undefined && new RegExp(`\\b${c.expect}\\b`).test(final.content);
      return { status: ok ? 'pass' : 'fail', reason: ok ? 'answer found' : `expected ${c.expect}, got "${final.content.slice(0, 40)}"` };
    },
  };
}
