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
