import type { Lease, ReleaseResult } from './types';

export type TerminationSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** The slice of `process` the helper uses (inject the real one, or a fake in tests). */
export interface SignalProcess {
  pid: number;
  on(event: TerminationSignal, listener: () => void): unknown;
  removeListener(event: TerminationSignal, listener: () => void): unknown;
  kill(pid: number, signal: TerminationSignal): unknown;
}

export interface ReleaseOnSignalsOptions {
  /** Listen on a process's signals (install once per process). */
  process?: SignalProcess;
  /** Or release when this signal aborts (the CLI's `io.signal`, already wired to SIGINT/SIGTERM). */
  signal?: AbortSignal;
  /** Default SIGINT and SIGTERM. */
  signals?: readonly TerminationSignal[];
  /**
   * Called after the release settles. Default with `process`: re-raise the signal with our listeners
   * removed, so the process ends the way it would have (exit by that signal) once the lease is back.
   */
  afterRelease?: (trigger: TerminationSignal | 'abort', outcome: ReleaseResult | Error) => void;
}

export interface SignalGuard {
  /** Settles after a signal-triggered release: the result, or the release error. Pending until a signal comes. */
  readonly released: Promise<ReleaseResult | Error>;
  /** Removes the listeners (call it after a normal release). */
  dispose(): void;
}

/**
 * Releases `lease` when SIGINT/SIGTERM arrives (through an injected process object) or when an
 * AbortSignal fires. A second signal during the release re-raises at once (the user insists).
 */
export function releaseOnSignals(lease: Lease, options: ReleaseOnSignalsOptions): SignalGuard {
  const signals = options.signals ?? ['SIGINT', 'SIGTERM'];
  const proc = options.process;
  let triggered = false;
  let resolveReleased!: (value: ReleaseResult | Error) => void;
  const released = new Promise<ReleaseResult | Error>((resolve) => (resolveReleased = resolve));
  const listeners = new Map<TerminationSignal, () => void>();

  const dispose = (): void => {
    for (const [name, listener] of listeners) proc?.removeListener(name, listener);
    listeners.clear();
    options.signal?.removeEventListener('abort', onAbort);
  };

  const reraise = (trigger: TerminationSignal | 'abort'): void => {
    dispose();
    if (proc && trigger !== 'abort') proc.kill(proc.pid, trigger);
  };

  const fire = (trigger: TerminationSignal | 'abort'): void => {
    if (triggered) {
      reraise(trigger);
      return;
    }
    triggered = true;
    lease.release().then(
      (result) => result,
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    ).then((outcome) => {
      resolveReleased(outcome);
      if (options.afterRelease) {
        dispose();
        options.afterRelease(trigger, outcome);
      } else {
        reraise(trigger);
      }
    });
  };

  function onAbort(): void {
    fire('abort');
  }

  if (proc) {
    for (const name of signals) {
      const listener = (): void => fire(name);
      listeners.set(name, listener);
      proc.on(name, listener);
    }
  }
  if (options.signal) {
    if (options.signal.aborted) fire('abort');
    else options.signal.addEventListener('abort', onAbort, { once: true });
  }
  return { released, dispose };
}

/** How a held lease ended: released when `signal` fired, the release failed, or the lease was lost. */
export type HoldOutcome = { kind: 'released'; result: ReleaseResult } | { kind: 'release-failed'; error: Error } | { kind: 'lost'; message: string };

/** Holds `lease` until `signal` aborts (then releases it) or the lease is lost; a ref'd timer keeps the process alive meanwhile. */
export async function holdLease(lease: Lease, signal: AbortSignal): Promise<HoldOutcome> {
  const keepAlive = setInterval(() => {}, 3_600_000);
  const guard = releaseOnSignals(lease, { signal, afterRelease: () => {} });
  try {
    return await Promise.race([
      guard.released.then((outcome): HoldOutcome => (outcome instanceof Error ? { kind: 'release-failed', error: outcome } : { kind: 'released', result: outcome })),
      lease.lost.then((loss): HoldOutcome => ({ kind: 'lost', message: loss.message })),
    ]);
  } finally {
    guard.dispose();
    clearInterval(keepAlive);
  }
}
