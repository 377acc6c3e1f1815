/** Helpers for this package's tests (not exported). */
import { REAL_CASES_DIR } from '@crucibleforge/testkit';
import type { ChatMessage, ToolCall } from '@crucibleforge/core';
import { loadCaseSet, materializeCase, nextMessages, parseCaseFile, type ConcreteCase, type GradeInput } from '@crucibleforge/cases';
import type { SimAnswer, SimModelOptions, SimRequestView } from '@crucibleforge/sim-endpoint';
import { FIXTURE_YAML } from './__fixtures__/cases';


export async function fixtureCases(): Promise<ConcreteCase[]> {
  const parsed = parseCaseFile(FIXTURE_YAML, 'fixtures.yaml');
  if (parsed.problems.length > 0) throw new Error(JSON.stringify(parsed.problems));
  return Promise.all(parsed.cases.map((c) => materializeCase(c.def, null)));
}

/** The repository's cases that materialise without a sandbox (no derive program), seed 1. */
export async function liveCases(): Promise<ConcreteCase[]> {
  const set = await loadCaseSet(REAL_CASES_DIR);
  return Promise.all(set.cases.filter((c) => !c.def.derive).map((c) => materializeCase(c.def, 1)));
}

export function view(messages: ChatMessage[], extra: Partial<SimRequestView> = {}): SimRequestView {
  return { model: 'm', messages, tools: [], max_tokens: null, stream: true, reasoning_off: false, index: 0, body: {}, ...extra };
}

/** Calls a sim model's answer function. */
export async function ask(model: SimModelOptions, v: SimRequestView): Promise<SimAnswer> {
  const answer = model.answer;
  if (typeof answer !== 'function') throw new Error(`${model.id} has a fixed answer`);
  const got = await answer(v, { signal: new AbortController().signal });
  if ('error' in got) throw new Error(`${model.id} refused the request: ${got.error.message}`);
  return got;
}

/**
 * Plays a whole conversation the way the runner does (initial messages, scripted tool results, later
 * user turns) with a sim model's answer function in the model's seat; returns what a grader reads.
 */
export async function converse(model: SimModelOptions, c: ConcreteCase, extra: Partial<SimRequestView> = {}): Promise<GradeInput & { answers: SimAnswer[] }> {
  const transcript: ChatMessage[] = [...(c.system ? [{ role: 'system' as const, content: c.system }] : []), { role: 'user', content: c.turns[0] ?? '' }];
  const answers: SimAnswer[] = [];
  for (let turn = 0; turn < 12; turn++) {
    const a = await ask(model, view([...transcript], extra));
    answers.push(a);
    const calls: ToolCall[] = (a.tool_calls ?? []).map((tc, i) => ({
      id: `call_${turn}_${i}`,
      name: tc.name,
      arguments: typeof tc.arguments === 'string' ? tc.arguments : JSON.stringify(tc.arguments),
    }));
    transcript.push({ role: 'assistant', content: a.content ?? '', ...(calls.length ? { tool_calls: calls } : {}) });
    const next = nextMessages(c, transcript);
    if (next.done) {
      return { content: a.content ?? '', tool_calls: calls, finish_reason: calls.length ? 'tool_calls' : 'stop', transcript, answers };
    }
    transcript.push(...next.messages);
  }
  throw new Error(`${c.id}: the conversation did not end`);
}
