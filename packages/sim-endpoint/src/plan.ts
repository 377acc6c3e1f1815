import type { ReasoningEncoding, SimAnswer } from './types';
import { simTokenize } from './tokenize';

/** One token of the reply, in the order it is generated. */
type Token =
  | { kind: 'reasoning'; text: string }
  | { kind: 'content'; text: string }
  | { kind: 'tool_name'; call: number; text: string }
  | { kind: 'tool_args'; call: number; text: string };

/** A group of tokens sent as one SSE event (or one part of the non-streaming message). */
export interface PlannedEvent {
  /** Index of the event's first token among all completion tokens: it is due at t_first + first_token / decode_tps. */
  first_token: number;
  tokens: number;
  reasoning_tokens: number;
  content_tokens: number;
  /** Reasoning text (for think_tags it is already inside `content`). */
  reasoning: string;
  content: string;
  /** A tool-call fragment: the header (id + name) or a piece of the arguments. */
  tool?: { index: number; id?: string; name?: string; arguments: string };
}

export interface PlannedCall {
  id: string;
  name: string;
  arguments: string;
}

export interface Plan {
  events: PlannedEvent[];
  completion_tokens: number;
  reasoning_tokens: number;
  content_tokens: number;
  finish_reason: 'stop' | 'length' | 'tool_calls';
  /** The reply as sent (after the max_tokens cut): for the non-streaming message and the tests. */
  reasoning: string;
  content: string;
  tool_calls: PlannedCall[];
}

export interface PlanOptions {
  encoding: ReasoningEncoding;
  tokens_per_event: number;
  max_tokens: number | null;
  /** Prefix of tool-call ids, e.g. `call_3` → call_3_0, call_3_1. */
  call_id_prefix: string;
}

function answerTokens(answer: SimAnswer, encoding: ReasoningEncoding): { tokens: Token[]; calls: PlannedCall[] } {
  const tokens: Token[] = [];
  const reasoning = answer.reasoning ?? '';
  if (reasoning.length > 0) {
    const texts = simTokenize(reasoning);
    if (encoding === 'think_tags') texts.unshift('<think>'), texts.push('</think>');
    for (const text of texts) tokens.push({ kind: 'reasoning', text });
  }
  for (const text of simTokenize(answer.content ?? '')) tokens.push({ kind: 'content', text });
  const calls: PlannedCall[] = [];
  for (const [i, call] of (answer.tool_calls ?? []).entries()) {
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    const nameTokens = simTokenize(call.name);
    // A call always costs at least one token, even with an empty name.
    for (const text of nameTokens.length > 0 ? nameTokens : ['']) tokens.push({ kind: 'tool_name', call: i, text });
    for (const text of simTokenize(args)) tokens.push({ kind: 'tool_args', call: i, text });
    calls.push({ id: '', name: call.name, arguments: args });
  }
  return { tokens, calls };
}

/** Cuts the tokens at the max_tokens budget; a tool call whose name does not fit is dropped whole. */
function applyBudget(tokens: Token[], maxTokens: number | null): { kept: Token[]; cut: boolean } {
  if (maxTokens === null || tokens.length <= maxTokens) return { kept: tokens, cut: false };
  let kept = tokens.slice(0, maxTokens);
  const last = kept[kept.length - 1];
  const next = tokens[maxTokens];
  if (last?.kind === 'tool_name' && next?.kind === 'tool_name' && next.call === last.call) {
    kept = kept.filter((t) => !(t.kind === 'tool_name' && t.call === last.call));
  }
  return { kept, cut: true };
}

/** Groups tokens into events: text tokens `per_event` at a time, each tool header alone, tool arguments per call. */
function groupEvents(tokens: Token[], perEvent: number, encoding: ReasoningEncoding, ids: string[]): PlannedEvent[] {
  const events: PlannedEvent[] = [];
  let current: PlannedEvent | undefined;
  let currentKey = '';
  for (const [i, token] of tokens.entries()) {
    const key = token.kind === 'reasoning' || token.kind === 'content' ? 'text' : `${token.kind}:${token.call}`;
    // A tool header (id + whole name) is one event; everything else is cut `perEvent` tokens at a time.
    const full = current !== undefined && token.kind !== 'tool_name' && current.tokens >= perEvent;
    if (!current || key !== currentKey || full) {
      current = { first_token: i, tokens: 0, reasoning_tokens: 0, content_tokens: 0, reasoning: '', content: '' };
      currentKey = key;
      events.push(current);
    }
    current.tokens += 1;
    if (token.kind === 'reasoning') {
      current.reasoning_tokens += 1;
      if (encoding === 'think_tags') current.content += token.text;
      else current.reasoning += token.text;
    } else if (token.kind === 'content') {
      current.content_tokens += 1;
      current.content += token.text;
    } else if (token.kind === 'tool_name') {
      current.tool ??= { index: token.call, id: ids[token.call] ?? '', name: '', arguments: '' };
      current.tool.name += token.text;
    } else {
      current.tool ??= { index: token.call, arguments: '' };
      current.tool.arguments += token.text;
    }
  }
  return events;
}

/** Turns an answer into the timed events of one reply, cut at the max_tokens budget. */
export function planReply(answer: SimAnswer, options: PlanOptions): Plan {
  const { tokens, calls } = answerTokens(answer, options.encoding);
  const { kept, cut } = applyBudget(tokens, options.max_tokens);
  const ids = calls.map((_, i) => `${options.call_id_prefix}_${i}`);
  const events = groupEvents(kept, Math.max(1, options.tokens_per_event), options.encoding, ids);
  const sentCalls: PlannedCall[] = [];
  let reasoning = '';
  let content = '';
  for (const token of kept) {
    if (token.kind === 'reasoning') {
      if (options.encoding === 'think_tags') content += token.text;
      else reasoning += token.text;
    } else if (token.kind === 'content') content += token.text;
    else {
      const call = (sentCalls[token.call] ??= { id: ids[token.call] ?? '', name: calls[token.call]?.name ?? '', arguments: '' });
      if (token.kind === 'tool_args') call.arguments += token.text;
    }
  }
  const reasoningTokens = kept.filter((t) => t.kind === 'reasoning').length;
  const contentTokens = kept.filter((t) => t.kind === 'content').length;
  return {
    events,
    completion_tokens: kept.length,
    reasoning_tokens: reasoningTokens,
    content_tokens: contentTokens,
    finish_reason: cut ? 'length' : sentCalls.length > 0 ? 'tool_calls' : 'stop',
    reasoning,
    content,
    tool_calls: sentCalls.filter((c) => c !== undefined),
  };
}
