/** Receives what the SSE parser finds; `data` is the joined `data:` lines of one event. */
export interface SseSink {
  data(data: string, event: string | null): void;
  comment(text: string): void;
}

/**
 * A small, fast Server-Sent Events parser (LF or CRLF line ends). Comment lines (`: keep-alive`)
 * are reported separately; `id:` and `retry:` fields are ignored. Feed decoded text with `push`,
 * then call `end` once the body is finished to flush an event the server did not terminate.
 */
export class SseParser {
  private buffer = '';
  private dataLines: string | null = null;
  private eventName: string | null = null;

  constructor(private readonly sink: SseSink) {}

  push(text: string): void {
    const buffer = this.buffer.length > 0 ? this.buffer + text : text;
    let start = 0;
    for (;;) {
      const newline = buffer.indexOf('\n', start);
      if (newline < 0) break;
      const end = newline > start && buffer.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
      this.line(buffer, start, end);
      start = newline + 1;
    }
    this.buffer = start === 0 ? buffer : buffer.slice(start);
  }

  end(): void {
    if (this.buffer.length > 0) {
      const rest = this.buffer.endsWith('\r') ? this.buffer.slice(0, -1) : this.buffer;
      this.buffer = '';
      this.line(rest, 0, rest.length);
    }
    this.dispatch();
  }

  private line(buffer: string, start: number, end: number): void {
    if (end === start) {
      this.dispatch();
      return;
    }
    const first = buffer.charCodeAt(start);
    if (first === 58 /* : */) {
      this.sink.comment(buffer.slice(start + 1, end).trim());
      return;
    }
    if (first === 100 /* d */ && buffer.startsWith('data:', start)) {
      const from = buffer.charCodeAt(start + 5) === 32 ? start + 6 : start + 5;
      const value = buffer.slice(from, end);
      this.dataLines = this.dataLines === null ? value : `${this.dataLines}\n${value}`;
      return;
    }
    if (first === 101 /* e */ && buffer.startsWith('event:', start)) {
      this.eventName = buffer.slice(start + 6, end).trim();
    }
  }

  private dispatch(): void {
    if (this.dataLines === null) {
      this.eventName = null;
      return;
    }
    const data = this.dataLines;
    const event = this.eventName;
    this.dataLines = null;
    this.eventName = null;
    this.sink.data(data, event);
  }
}

/** One thing read from an event stream: a `data:` event (lines joined by \n) or a `:` comment line. */
export type SseEvent =
  | { type: 'data'; data: string; /** performance.now() when the read holding the event's end arrived */ at: number }
  | { type: 'comment'; text: string; at: number };

/**
 * Reads a fetch Response body as server-sent events with {@link SseParser}, yielding data events and comment
 * lines in order with their arrival time on performance.now(). For tests and tools; the timing client
 * drives the parser itself to time every event.
 */
export async function* readSse(response: Response): AsyncGenerator<SseEvent> {
  if (!response.body) return;
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  let at = performance.now();
  let pending: SseEvent[] = [];
  const parser = new SseParser({
    data: (data) => pending.push({ type: 'data', data, at }),
    comment: (text) => pending.push({ type: 'comment', text, at }),
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      at = performance.now();
      if (done) {
        parser.push(decoder.decode());
        parser.end();
      } else parser.push(decoder.decode(value, { stream: true }));
      const out = pending;
      pending = [];
      yield* out;
      if (done) break;
    }
  } finally {
    reader.releaseLock();
  }
}
