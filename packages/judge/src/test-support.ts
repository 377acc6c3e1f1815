/** Shared helpers for this package's tests (not exported from the package). */
import type { ChatCompleter, ChatReply, ChatRequest } from '@crucibleforge/core';
import { startSimEndpoint, type SimEndpoint, type SimModelOptions } from '@crucibleforge/sim-endpoint';
import { afterEach } from 'vitest';
import { readFencedPrompt, type FencedPrompt } from './fence';

export const JUDGE = { model: 'judge-model', endpoint: 'http://judge.test/v1' };
export const FIXED_NOW = () => new Date('2030-01-02T03:04:05.000Z');

/** A reply with everything but the content defaulted. */
export function reply(content: string, extra: Partial<ChatReply> = {}): ChatReply {
  return {
    content,
    reasoning: '',
    tool_calls: [],
    finish_reason: 'stop',
    model: JUDGE.model,
    usage: { prompt_tokens: null, completion_tokens: null, reasoning_tokens: null, cached_tokens: null, cost_usd: null },
    ...extra,
  };
}

export type Script = (request: ChatRequest, index: number) => string | Partial<ChatReply> | Promise<string | Partial<ChatReply>>;

/** A completer driven by a function of the request; keeps every request it got. */
export function fake(script: Script): ChatCompleter & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    requests,
    async complete(request) {
      requests.push(request);
      const out = await script(request, requests.length - 1);
      return typeof out === 'string' ? reply(out) : reply(out.content ?? '', out);
    },
  };
}

/** Replies in order from a list (the last one repeats). */
export function sequence(...replies: (string | Partial<ChatReply>)[]): ChatCompleter & { requests: ChatRequest[] } {
  return fake((_req, i) => replies[Math.min(i, replies.length - 1)] ?? '');
}

export const verdict = (correct: boolean, note = 'ok') => JSON.stringify({ correct, note });

/** A deterministic RandomSource walking through fixed values. */
export function counterRandom(): () => number {
  let i = 0;
  return () => ((i++ * 0.618033988749895) % 1);
}

/** The fences of a request's user message (judge's own reader); throws when the prompt announces no token. */
export function readPrompt(request: ChatRequest): FencedPrompt {
  const user = request.messages.find((m) => m.role === 'user')?.content ?? '';
  const read = readFencedPrompt(user);
  if (!read) throw new Error('no fence token announced in the prompt');
  return read;
}

/** A non-streaming, fetch-based ChatCompleter for the sim endpoint (OpenAI wire format). */
export function simCompleter(url: string, model: string): ChatCompleter {
  return {
    async complete(request) {
      const body: Record<string, unknown> = {
        model,
        messages: request.messages,
        stream: false,
        temperature: request.temperature,
        max_tokens: request.max_tokens,
      };
      if (request.reasoning === 'off') body.chat_template_kwargs = { enable_thinking: false };
      if (request.json_schema) body.response_format = { type: 'json_schema', json_schema: { ...request.json_schema, strict: true } };
      const res = await fetch(`${url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        ...(request.signal ? { signal: request.signal } : {}),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`HTTP ${res.status} from ${url}: ${text.slice(0, 200)}`);
      const json = JSON.parse(text) as {
        model?: string;
        choices: { message: { content: string | null; reasoning_content?: string; reasoning?: string }; finish_reason: ChatReply['finish_reason'] }[];
      };
      const choice = json.choices[0];
      return reply(choice?.message.content ?? '', {
        reasoning: choice?.message.reasoning_content ?? choice?.message.reasoning ?? '',
        finish_reason: choice?.finish_reason ?? null,
        model: json.model ?? null,
      });
    },
  };
}

const open: SimEndpoint[] = [];

/** Starts a sim endpoint playing the judge (instant replies); closed after the current test. */
export async function simJudge(answer: NonNullable<SimModelOptions['answer']>, extra: Partial<SimModelOptions> = {}) {
  const endpoint = await startSimEndpoint({
    models: [{ id: 'sim-judge', first_token_base_ms: 0, prefill_tps: 1e9, decode_tps: 1e6, answer, ...extra }],
  });
  open.push(endpoint);
  return { endpoint, complete: simCompleter(endpoint.url, 'sim-judge'), identity: { model: 'sim-judge', endpoint: endpoint.url } };
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()));
});
