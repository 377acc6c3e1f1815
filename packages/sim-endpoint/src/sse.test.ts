import { describe, expect, it } from 'vitest';
import { readSse, type SseEvent } from './sse';

function responseOf(parts: string[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(encoder.encode(part));
      controller.close();
    },
  });
  return new Response(body);
}

async function all(parts: string[]): Promise<Omit<SseEvent, 'at'>[]> {
  const out: Omit<SseEvent, 'at'>[] = [];
  for await (const { at: _at, ...event } of readSse(responseOf(parts))) out.push(event);
  return out;
}

describe('readSse', () => {
  it('reads data events and comments across arbitrary read boundaries, LF or CRLF', async () => {
    const expected = [
      { type: 'comment', text: 'keep-alive' },
      { type: 'data', data: '{"a":1}' },
      { type: 'data', data: '[DONE]' },
    ];
    expect(await all([': keep-alive\n\ndata: {"a":1}\n\ndata: [DONE]\n\n'])).toEqual(expected);
    expect(await all([': keep-alive\r\n\r', '\ndata: {"a"', ':1}\r', '\n\r\ndata: [DO', 'NE]\r\n\r\n'])).toEqual(expected);
  });

  it('joins multi-line data, accepts data: without a space, ignores other fields, flushes a last event', async () => {
    expect(await all(['event: x\nid: 3\ndata: one\ndata:two\n\ndata: tail'])).toEqual([
      { type: 'data', data: 'one\ntwo' },
      { type: 'data', data: 'tail' },
    ]);
  });

  it('yields nothing for an empty body', async () => {
    expect(await all([])).toEqual([]);
  });
});
