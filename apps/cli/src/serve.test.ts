import { describe, expect, it } from 'vitest';
import { UsageError } from './io';
import { listenFlags, serveUntilSignal, untilAborted } from './serve';
import { memoryIO } from '@crucibleforge/testkit';

describe('serveUntilSignal', () => {
  it('prints the banner, waits for the signal, then closes and reports what close left behind', async () => {
    const stop = new AbortController();
    const t = memoryIO({ signal: stop.signal });
    const order: string[] = [];
    let requests = 0;
    const served = serveUntilSignal(t.io, {
      banner: ['listening on http://127.0.0.1:1/'],
      stopping: 'stopping',
      close: async () => {
        order.push(`close after ${t.stdout().split('\n').length - 1} lines`);
        requests = 3;
      },
      stopped: () => `stopped after ${requests} request(s)`,
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual([]);
    expect(t.stdout()).toBe('listening on http://127.0.0.1:1/\nPress Ctrl-C to stop.\n');
    stop.abort();
    expect(await served).toBe(0);
    expect(order).toEqual(['close after 3 lines']);
    expect(t.stdout()).toBe('listening on http://127.0.0.1:1/\nPress Ctrl-C to stop.\nstopping\nstopped after 3 request(s)\n');
  });

  it('returns at once for a signal that already fired', async () => {
    const stop = new AbortController();
    stop.abort();
    await expect(untilAborted(stop.signal)).resolves.toBeUndefined();
  });
});

describe('listenFlags', () => {
  it('passes through what was given and leaves the rest to the command', () => {
    expect(listenFlags({})).toEqual({ port: undefined, host: undefined });
    expect(listenFlags({ port: '0', host: '0.0.0.0' })).toEqual({ port: 0, host: '0.0.0.0' });
    expect(listenFlags({ port: '65535' }).port).toBe(65535);
  });

  it('refuses ports outside 0–65535 and a blank host', () => {
    expect(() => listenFlags({ port: '65536' })).toThrow(new UsageError('--port must be at most 65535, got "65536"'));
    expect(() => listenFlags({ port: '-1' })).toThrow(UsageError);
    expect(() => listenFlags({ port: 'http' })).toThrow(/--port must be an integer/);
    expect(() => listenFlags({ host: '  ' })).toThrow('--host must not be empty');
  });
});
