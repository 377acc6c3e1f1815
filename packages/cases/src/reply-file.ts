import type { ChatMessage, FinishReason, ToolCall } from '@crucibleforge/core';
import { casesError } from './errors';
import type { GradeInput } from './types';

const invalid = (message: string) => casesError('CASES_INVALID', message);

const FINISH_REASONS = new Set(['stop', 'length', 'tool_calls', 'content_filter', 'error']);

function toolCall(raw: unknown, where: string): ToolCall {
  const c = raw as Partial<Record<'id' | 'name' | 'arguments', unknown>>;
  if (c === null || typeof c !== 'object' || typeof c.name !== 'string') throw invalid(`${where}: a tool call needs a "name" string`);
  const args = typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {});
  return { id: typeof c.id === 'string' ? c.id : `call_${c.name}`, name: c.name, arguments: args };
}

/**
 * A reply file: the reply text, or a JSON object with a string `content` as the runner stores a row
 * ({content, tool_calls_by_turn?, tool_calls?, transcript?, finish_reason?}; other keys are ignored).
 * Any other text, JSON included, is the reply itself (`text` forces that). Pure; a bad field throws CASES_INVALID naming the file and the field.
 */
export function parseReplyFile(text: string, file: string, forceText = false): GradeInput {
  if (forceText || !text.trimStart().startsWith('{')) return { content: text };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { content: text };
  }
  const row = parsed as Record<string, unknown>;
  if (row === null || typeof row !== 'object' || Array.isArray(row) || typeof row['content'] !== 'string') return { content: text };
  const input: GradeInput = { content: row['content'] };
  const byTurn = row['tool_calls_by_turn'];
  if (byTurn !== undefined) {
    if (!Array.isArray(byTurn) || !byTurn.every(Array.isArray)) throw invalid(`${file}: "tool_calls_by_turn" must be an array of arrays of tool calls`);
    input.tool_calls = (byTurn as unknown[][]).flatMap((turn, t) => turn.map((c, i) => toolCall(c, `${file}: tool_calls_by_turn[${t}][${i}]`)));
  } else if (row['tool_calls'] !== undefined) {
    if (!Array.isArray(row['tool_calls'])) throw invalid(`${file}: "tool_calls" must be an array`);
    input.tool_calls = row['tool_calls'].map((c, i) => toolCall(c, `${file}: tool_calls[${i}]`));
  }
  const transcript = row['transcript'];
  if (transcript !== undefined) {
    if (!Array.isArray(transcript) || !transcript.every((m) => m !== null && typeof m === 'object' && typeof (m as ChatMessage).role === 'string')) {
      throw invalid(`${file}: "transcript" must be an array of chat messages ({role, content, …})`);
    }
    input.transcript = transcript as ChatMessage[];
  }
  const finish = row['finish_reason'];
  if (finish !== undefined && finish !== null) {
    if (typeof finish !== 'string' || !FINISH_REASONS.has(finish)) throw invalid(`${file}: "finish_reason" must be one of ${[...FINISH_REASONS].join(', ')}`);
    input.finish_reason = finish as FinishReason;
  }
  return input;
}
