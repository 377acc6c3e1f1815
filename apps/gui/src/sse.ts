import type { IncomingMessage, ServerResponse } from 'node:http';
import { SECURITY_HEADERS, type Scrub } from './http';
import { sseFrame, type LiveMessage } from './live';
import type { LiveRun } from './runs';

const HEARTBEAT_MS = 15_000;

/**
 * Streams a run's messages as server-sent events: everything from the start (or after `Last-Event-ID`), then
 * each new one as it comes, until the run's stream closes or the browser goes away.
 */
export async function streamLive(req: IncomingMessage, res: ServerResponse, live: LiveRun | undefined, scrub: Scrub): Promise<void> {
  res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  res.write('retry: 2000\n\n');
  if (!live) {
    res.end('event: not-live\ndata: {}\n\n');
    return;
  }
  const header = req.headers['last-event-id'];
  const after = typeof header === 'string' && /^\d+$/.test(header) ? Number(header) : -1;
  let closed = false;
  const gone = new Promise<void>((resolve) => {
    const done = () => {
      closed = true;
      resolve();
    };
    req.once('close', done);
    res.once('close', done);
  });
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  const iterator = live.channel[Symbol.asyncIterator]();
  let index = 0;
  try {
    while (!closed) {
      const next = await Promise.race([iterator.next(), gone.then(() => null)]);
      if (next === null || next.done) break;
      const id = index++;
      if (id <= after) continue;
      res.write(scrub(sseFrame(id, next.value as LiveMessage)));
    }
  } finally {
    clearInterval(heartbeat);
    void iterator.return?.();
    if (!closed) res.end('event: closed\ndata: {}\n\n');
  }
}
