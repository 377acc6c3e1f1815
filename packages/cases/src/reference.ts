import type { ChatMessage, ToolCall } from '@crucibleforge/core';
import { initialMessages, nextMessages } from './conversation';
import type { RefCall } from './schema/case';
import type { ConcreteCase, GradeInput } from './types';

const FENCE: Record<'python' | 'node', string> = { python: 'python', node: 'javascript' };

/**
 * The final text a correct model would give: `reference.reply` when the case has one, else built from the
 * reference (`Answer: …` for answer graders, the solution in a fence for code, the reference prose for judged
 * cases). null when the case has neither.
 */
export function referenceText(c: Pick<ConcreteCase, 'grader' | 'reference'>): string | null {
  const r = c.reference;
  if (r.reply !== undefined) return r.reply;
  const g = c.grader;
  if (g.type === 'code') return r.solution === undefined ? null : `\`\`\`${FENCE[g.language]}\n${r.solution.trimEnd()}\n\`\`\``;
  if (r.answer === undefined) return null;
  const label = 'label' in g && g.label ? g.label : 'Answer';
  if (typeof r.answer === 'object') {
    return `${label}:\n${Object.entries(r.answer).map(([k, v]) => `${k}: ${v}`).join('\n')}`;
  }
  if (g.type === 'judge') return String(r.answer);
  return `${label}: ${r.answer}`;
}

function toWireCalls(calls: RefCall[], turn: number): ToolCall[] {
  return calls.map((call, i) => ({ id: `call_${turn + 1}_${i + 1}`, name: call.name, arguments: JSON.stringify(call.arguments) }));
}

/**
 * What a correct model says on its n-th assistant turn (0-based): the reference calls of that turn, or,
 * after the last of them, the final text. The sim endpoint's reference model and verify both use this.
 */
export function referenceTurn(
  c: Pick<ConcreteCase, 'grader' | 'reference'> & { tool_script?: ConcreteCase['tool_script'] },
  turn: number,
  override?: { reply?: string | undefined; calls?: RefCall[][] | undefined },
): { content: string; tool_calls: ToolCall[] } {
  const calls = override?.calls ?? c.reference.calls ?? [];
  const text = () => override?.reply ?? referenceText(c) ?? '';
  if (turn < calls.length && calls[turn]!.length > 0) {
    // without a tool script the conversation ends with the calls: the final text is sent with them
    const last = turn === calls.length - 1 && (c.tool_script === null || c.tool_script === undefined) && ('tool_script' in c);
    return { content: last ? text() : '', tool_calls: toWireCalls(calls[turn]!, turn) };
  }
  return { content: text(), tool_calls: [] };
}

/**
 * Plays the whole conversation with the reference as the model (scripted tool results and later user turns
 * included) and returns it as a grade input. With `override`, plays a wrong reply or wrong calls instead.
 */
export function referenceTranscript(c: ConcreteCase, override?: { reply?: string | undefined; calls?: RefCall[][] | undefined }): GradeInput {
  const transcript: ChatMessage[] = initialMessages(c);
  let last: { content: string; tool_calls: ToolCall[] } = { content: '', tool_calls: [] };
  for (let turn = 0; turn < 50; turn++) {
    last = referenceTurn(c, turn, override);
    transcript.push({ role: 'assistant', content: last.content, ...(last.tool_calls.length ? { tool_calls: last.tool_calls } : {}) });
    const next = nextMessages(c, transcript);
    if (next.done) break;
    transcript.push(...next.messages);
  }
  return { content: last.content, tool_calls: last.tool_calls, finish_reason: 'stop', transcript };
}
