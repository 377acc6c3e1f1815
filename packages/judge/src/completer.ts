import type { ChatCompleter, ChatReply, ChatRequest } from '@crucibleforge/core';
import { invalidInput } from './errors';

/** The one chat call as a plain function: `(request) => Promise<ChatReply>`. */
export type ChatCompleteFn = (request: ChatRequest) => Promise<ChatReply>;

/** What `complete` may be: a `ChatCompleter` (an object with a `complete` method) or the plain function. */
export type JudgeCompleter = ChatCompleter | ChatCompleteFn;

/**
 * The completer as an object; a plain function is wrapped. Anything else is a usage error
 * (JUDGE_INVALID_INPUT, `details.field` = `complete`) before any call, never a judge-error verdict.
 */
export function completerFrom(value: unknown): ChatCompleter {
  if (typeof value === 'function') return { complete: (request) => (value as ChatCompleteFn)(request) };
  if (value !== null && typeof value === 'object' && typeof (value as { complete?: unknown }).complete === 'function') {
    const completer = value as ChatCompleter;
    return { complete: (request) => completer.complete(request) };
  }
  const got = value === null ? 'null' : typeof value === 'object' ? `an object without a complete() method` : typeof value;
  throw invalidInput('complete', `expected a ChatCompleter ({ complete(request) }) or a function (request) => Promise<ChatReply>, got ${got}`);
}
