/** Shared helpers for this package's tests (not exported from the package). */
import { afterEach } from 'vitest';
import { readSse, type SseEvent } from '@crucibleforge/core';
import { startSimEndpoint } from './server';
import type { SimEndpoint, SimEndpointOptions, SimModelOptions } from './types';

const open: SimEndpoint[] = [];

/** Starts a sim endpoint that is closed after the current test. */
export async function sim(models: SimModelOptions[], extra: Omit<SimEndpointOptions, 'models'> = {}): Promise<SimEndpoint> {
  const endpoint = await startSimEndpoint({ models, ...extra });
  open.push(endpoint);
  return endpoint;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()));
});

export const hello = [{ role: 'user', content: 'Hello there, sim.' }];

export function post(endpoint: SimEndpoint, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${endpoint.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Chunk = any;

export interface Collected {
  events: SseEvent[];
  /** Parsed JSON of every data event except [DONE] (malformed ones are in `bad`). */
  chunks: Chunk[];
  bad: string[];
  comments: string[];
  done: boolean;
}

export async function collect(response: Response): Promise<Collected> {
  const out: Collected = { events: [], chunks: [], bad: [], comments: [], done: false };
  for await (const event of readSse(response)) {
    out.events.push(event);
    if (event.type === 'comment') out.comments.push(event.text);
    else if (event.data === '[DONE]') out.done = true;
    else {
      try {
        out.chunks.push(JSON.parse(event.data));
      } catch {
        out.bad.push(event.data);
      }
    }
  }
  return out;
}

/** Joins a delta field over all chunks. */
export function joined(chunks: Chunk[], field: string): string {
  return chunks.map((c) => c.choices?.[0]?.delta?.[field] ?? '').join('');
}

/** Reassembles streamed tool calls by index. */
export function toolCalls(chunks: Chunk[]): { id: string; name: string; arguments: string }[] {
  const calls: { id: string; name: string; arguments: string }[] = [];
  for (const c of chunks) {
    for (const part of c.choices?.[0]?.delta?.tool_calls ?? []) {
      const call = (calls[part.index] ??= { id: '', name: '', arguments: '' });
      if (part.id) call.id = part.id;
      if (part.function?.name) call.name += part.function.name;
      if (part.function?.arguments) call.arguments += part.function.arguments;
    }
  }
  return calls;
}
