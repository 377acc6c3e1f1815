import type { SpeedSummary } from '@crucibleforge/core';
import type { RunRow, StopReason } from './storage-types';

export interface RunProgress {
  done: number;
  total: number;
  passes: number;
  /** Completion tokens per second of wall time since the run (re)started, over all models. */
  tokens_per_s: number | null;
  cost_usd: number;
  /** Seconds left at the current pace; null until a case has finished. */
  eta_s: number | null;
}

export interface ModelOutcome {
  model: string;
  done: number;
  total: number;
  passes: number;
  cost_usd: number;
  stopped: { reason: StopReason; message: string } | null;
  /** Cases cut off in flight by a stop: stored as rows of class `aborted` (never graded; a resume runs them again). */
  aborted: number;
}

export interface RunSummary {
  run_id: string;
  dir: string;
  resumed: boolean;
  total: number;
  done: number;
  passes: number;
  failures: number;
  errors: number;
  skipped: number;
  pending_judge: number;
  overflows: { happened: number; recovered: number };
  cost_usd: number;
  models: ModelOutcome[];
  /** True when every planned case has a final row. */
  complete: boolean;
}

/** Everything a run reports, in order. The CLI renders these; the GUI subscribes to the same stream. */
export type RunEvent =
  | { type: 'run-start'; run_id: string; dir: string; resumed: boolean; models: string[]; total: number; already_done: number }
  | { type: 'model-start'; model: string; cases: number }
  | {
      type: 'preflight';
      model: string;
      ok: boolean;
      /** The model id the reply named. */
      served_model: string | null;
      reasoning: boolean;
      context_length: number | null;
      ttft_s: number | null;
      message: string;
    }
  /** A model's speed was measured (its report is in the run's speed.json). */
  | { type: 'speed'; model: string; summary: SpeedSummary; requests: number; failures: number; warnings: string[] }
  | { type: 'case-start'; model: string; case_id: string; seed: number | null }
  | { type: 'case-end'; model: string; row: RunRow }
  | { type: 'model-stopped'; model: string; reason: StopReason; message: string }
  | { type: 'model-end'; outcome: ModelOutcome }
  | { type: 'notice'; model: string | null; message: string }
  | ({ type: 'progress' } & RunProgress)
  | { type: 'run-end'; summary: RunSummary };

export type RunEventType = RunEvent['type'];

/**
 * A replaying broadcast: every iterator sees every event from the start, so a late subscriber (a GUI page
 * opened mid-run) misses nothing. `close()` ends all iterators.
 */
export class EventChannel<T> implements AsyncIterable<T> {
  readonly #events: T[] = [];
  #closed = false;
  #wake: (() => void)[] = [];

  push(event: T): void {
    if (this.#closed) return;
    this.#events.push(event);
    this.#notify();
  }

  close(): void {
    this.#closed = true;
    this.#notify();
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Everything emitted so far. */
  snapshot(): readonly T[] {
    return this.#events;
  }

  #notify(): void {
    const waiting = this.#wake;
    this.#wake = [];
    for (const wake of waiting) wake();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let index = 0;
    for (;;) {
      while (index < this.#events.length) yield this.#events[index++]!;
      if (this.#closed) return;
      await new Promise<void>((resolve) => this.#wake.push(resolve));
    }
  }
}
