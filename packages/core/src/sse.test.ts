import { describe, expect, it } from 'vitest';
import { readSse, SseParser, type SseEvent } from './sse';

function parse(pieces: string[], end = true) {
  const out: { kind: 'data' | 'comment'; text: string; event?: string | null }[] = [];
  const parser = new SseParser({
    data: (text, event) => out.push({ kind: 'data', text, event }),
    comment: (text) => out.push({ kind: 'comment', text }),
  });
  for (const piece of pieces) parser.push(piece);
  if (end) parser.end();
  return out;
}

describe('SseParser', () => {
  it('splits LF events, reports comments apart, strips one space after data:', () => {
    expect(parse([': keep-alive\n\ndata: {"a":1}\n\ndata:{"b":2}\n\n'])).toEqual([
      { kind: 'comment', text: 'keep-alive' },
      { kind: 'data', text: '{"a":1}', event: null },
      { kind: 'data', text: '{"b":2}', event: null },
    ]);
  });

  it('handles CRLF line ends and events cut anywhere between pushes', () => {
    const text = ': loading model\r\n\r\ndata: {"x":"y"}\r\n\r\ndata: [DONE]\r\n\r\n';
    for (let cut = 1; cut < text.length; cut++) {
      expect(parse([text.slice(0, cut), text.slice(cut)])).toEqual([
        { kind: 'comment', text: 'loading model' },
        { kind: 'data', text: '{"x":"y"}', event: null },
        { kind: 'data', text: '[DONE]', event: null },
      ]);
    }
  });

  it('joins multi-line data with a newline and keeps the event name', () => {
    expect(parse(['event: error\ndata: line1\ndata: line2\n\n'])).toEqual([{ kind: 'data', text: 'line1\nline2', event: 'error' }]);
  });

  it('flushes an unterminated last event at end(), not before', () => {
    expect(parse(['data: {"late":true}'], false)).toEqual([]);
    expect(parse(['data: {"late":true}'])).toEqual([{ kind: 'data', text: '{"late":true}', event: null }]);
  });

  it('ignores id: and retry: fields and blank lines between events', () => {
    expect(parse(['id: 7\nretry: 100\n\n\n\ndata: 1\n\n'])).toEqual([{ kind: 'data', text: '1', event: null }]);
  });
});


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
