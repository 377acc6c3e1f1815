/**
 * The relay's pure parts: a chat request as the plain text a solver reads, the solver's reply file as an answer,
 * the next request number, and the runner's preflight. The files and the waiting are in relay-files.ts.
 */
import { PREFLIGHT_PROMPT, type ChatMessage } from '@crucibleforge/core';
import type { SimAnswer, SimRequestView } from './types';

/** What the conversation file says after the tools, so a solver knows how to call them. */
export const RELAY_TOOL_INSTRUCTIONS =
  'To call tools instead of (or before) answering, put one line per call in your reply:\n' +
  'CALL <tool_name> <arguments as one-line JSON>\n' +
  'Several CALL lines make parallel calls; their results come back in the next turn. A reply without CALL lines is your final answer.';

/** The parts of a request the conversation file shows. */
export type RelayRequest = Pick<SimRequestView, 'messages' | 'tools' | 'max_tokens'>;

function section(message: ChatMessage): string {
  const text = message.content ?? '';
  switch (message.role) {
    case 'system':
      return `=== SYSTEM MESSAGE ===\n${text}\n`;
    case 'user':
      return `=== USER MESSAGE ===\n${text}\n`;
    case 'tool':
      return `=== TOOL RESULT (call id ${message.tool_call_id ?? '?'}) ===\n${text}\n`;
    case 'assistant': {
      const calls = (message.tool_calls ?? []).map((c) => `CALL ${c.name} ${c.arguments}   [call id ${c.id}]\n`);
      // A turn that only called tools has no text line.
      const body = text === '' && calls.length > 0 ? '' : `${text}\n`;
      return `=== ASSISTANT MESSAGE (your earlier turn) ===\n${body}${calls.join('')}`;
    }
  }
}

/**
 * The request as the plain text a solver answers: one section per message (system and developer → SYSTEM,
 * earlier assistant turns with their CALL lines, tool results with their call id), the tools offered, and the
 * reply budget (`max_completion_tokens` ?? `max_tokens` ?? "unstated"), then how to call tools when there are any.
 */
export function relayConversationText(request: RelayRequest): string {
  const parts = request.messages.map(section);
  if (request.tools.length > 0) parts.push(`=== TOOLS OFFERED ===\n${JSON.stringify(request.tools, null, 1)}\n`);
  parts.push(`=== END OF CONVERSATION (your reply budget: at most ${request.max_tokens ?? 'unstated'} tokens) ===\n`);
  if (request.tools.length > 0) parts.push(`${RELAY_TOOL_INSTRUCTIONS}\n`);
  return parts.join('\n');
}

/** A reply file read: the answer, or the first line that could not be read (1-based). */
export type RelayReply =
  | { ok: true; answer: Required<Pick<SimAnswer, 'content'>> & { tool_calls: { name: string; arguments: string }[] } }
  | { ok: false; line: number; problem: string };

const CALL_LINE = /^\s*CALL\s+([A-Za-z0-9_.:-]+)\s+(\{.*\})\s*$/;
/** A line that starts like a call: it must then be a whole one, so a cut-off call is never taken for the answer. */
const CALL_START = /^\s*CALL\s+[A-Za-z0-9_.:-]+\s+\{/;

/**
 * Reads a solver's reply: every `CALL <name> {json}` line is a tool call (its arguments kept as written; the
 * JSON must parse), every other line is the content (trimmed as a whole). A line that starts like a call but
 * is not a whole one, or whose JSON does not parse, is a problem at that line.
 */
export function parseRelayReply(text: string): RelayReply {
  const calls: { name: string; arguments: string }[] = [];
  const content: string[] = [];
  const lines = text.split(/\r?\n/);
  for (const [i, line] of lines.entries()) {
    const call = CALL_LINE.exec(line);
    if (!call) {
      if (CALL_START.test(line)) return { ok: false, line: i + 1, problem: 'a CALL line must end with its JSON arguments object: CALL <tool_name> {…}' };
      content.push(line);
      continue;
    }
    const [, name, args] = call as unknown as [string, string, string];
    try {
      JSON.parse(args);
    } catch (error) {
      return { ok: false, line: i + 1, problem: `the arguments of CALL ${name} are not valid JSON (${(error as Error).message})` };
    }
    calls.push({ name, arguments: args });
  }
  return { ok: true, answer: { content: content.join('\n').trim(), tool_calls: calls } };
}

/** The number of the next request folder: one more than the highest `req-N` among `names` (1 when there is none). */
export function nextRequestNumber(names: Iterable<string>): number {
  let highest = 0;
  for (const name of names) {
    const n = /^req-(\d+)$/.exec(name)?.[1];
    if (n !== undefined) highest = Math.max(highest, Number(n));
  }
  return highest + 1;
}

/** True when the whole conversation is the runner's preflight prompt (answered at once, with no file). */
export function isPreflightRequest(request: Pick<SimRequestView, 'messages' | 'tools'>): boolean {
  const [only, ...rest] = request.messages;
  return rest.length === 0 && request.tools.length === 0 && only?.role === 'user' && only.content?.trim() === PREFLIGHT_PROMPT;
}
