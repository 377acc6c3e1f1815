import type { Sleep } from '@crucibleforge/core';
import type { LeaseTimers } from '../types';

/** A clock, sleep and timers that only move when told: no test waits real seconds. */
export interface ManualTime {
  /** Current time in ms (starts at `start`, default 1 700 000 000 000 so it also reads as a wall clock). */
  now(): number;
  /** Records the requested ms, advances the clock by it (firing due timers), then resolves. Rejects when the signal is aborted. */
  sleep: Sleep;
  /** Timers that fire inside `advance`; a callback's returned promise is awaited before `advance` goes on. */
  timers: LeaseTimers;
  /** Moves the clock forward, firing due timers in time order. */
  advance(ms: number): Promise<void>;
  /** Every `sleep` request, in ms. */
  sleeps: number[];
  /** Timers still scheduled. */
  pendingTimers(): number;
}

export function createManualTime(options: { start?: number } = {}): ManualTime {
  let now = options.start ?? 1_700_000_000_000;
  let nextId = 1;
  const due = new Map<number, { at: number; callback: () => unknown }>();
  const sleeps: number[] = [];

  const advance = async (ms: number): Promise<void> => {
    const target = now + Math.max(0, ms);
    for (;;) {
      let first: [number, { at: number; callback: () => unknown }] | undefined;
      for (const entry of due) if (entry[1].at <= target && (!first || entry[1].at < first[1].at)) first = entry;
      if (!first) break;
      due.delete(first[0]);
      now = Math.max(now, first[1].at);
      await first[1].callback();
    }
    now = target;
  };

  return {
    now: () => now,
    sleeps,
    advance,
    pendingTimers: () => due.size,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      sleeps.push(ms);
      await advance(ms);
      if (signal?.aborted) throw signal.reason;
    },
    timers: {
      setTimeout(callback, ms) {
        const id = nextId++;
        due.set(id, { at: now + Math.max(0, ms), callback });
        return id;
      },
      clearTimeout(handle) {
        due.delete(handle as number);
      },
    },
  };
}
