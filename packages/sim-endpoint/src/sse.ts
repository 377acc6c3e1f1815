/** One thing read from an event stream: a `data:` event (lines joined by \n) or a `:` comment line. */
export type SseEvent =
  | { type: 'data'; data: string; /** performance.now() when the event's last line arrived */ at: number }
  | { type: 'comment'; text: string; at: number };

/**
 * Reads a fetch Response body as server-sent events, yielding data events and comment lines in order
 * with their arrival time on performance.now(). Accepts LF and CRLF line ends; `event:`, `id:` and
 * `retry:` fields are ignored. For tests and tools; it does not parse the JSON.
 */
export async function* readSse(response: Response): AsyncGenerator<SseEvent> {
  if (!response.body) return;
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      const at = performance.now();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = buffer.split('\n').map((line) => line.replace(/\r$/, ''));
      // Keep the unfinished last line for the next read.
      buffer = done ? '' : lines.pop()!;
      for (const line of lines) {
        if (line === '') {
          if (data.length > 0) yield { type: 'data', data: data.join('\n'), at };
          data = [];
        } else if (line.startsWith(':')) {
          yield { type: 'comment', text: line.slice(1).trimStart(), at };
        } else if (line.startsWith('data:')) {
          data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
        }
      }
      if (done) break;
    }
    if (data.length > 0) yield { type: 'data', data: data.join('\n'), at: performance.now() };
  } finally {
    reader.releaseLock();
  }
}
