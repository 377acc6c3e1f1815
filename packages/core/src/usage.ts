import type { TokenUsage } from './chat';

/** Token usage when the endpoint reported none: every count unknown (null), never zero. */
export const EMPTY_USAGE: Readonly<TokenUsage> = Object.freeze({
  prompt_tokens: null,
  completion_tokens: null,
  reasoning_tokens: null,
  cached_tokens: null,
  cost_usd: null,
});
