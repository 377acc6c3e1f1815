import { neutralizeControls } from '@crucibleforge/core';
import { processLeases, type LeaseRegistry } from './registry';

/** The slice of `process` the exit handlers use (the real one, or a fake in tests). */
export interface ExitProcess {
  on(event: 'uncaughtException' | 'unhandledRejection' | 'SIGINT' | 'SIGTERM', listener: (value?: unknown) => void): unknown;
  exit(code: number): void;
}

export interface ExitReleaseOptions {
  process: ExitProcess;
  registry?: LeaseRegistry;
  write: (text: string) => void;
  /** How long an exit waits for the lease server (default 5 000 ms); the server's idle TTL is the backstop. */
  timeoutMs?: number;
  /** Whether the user has already asked to stop once (a second signal then exits, after the release). */
  alreadyStopping: () => boolean;
  debug?: boolean;
}

export interface ExitRelease {
  /** Gives back every held lease now (bounded) and says so on stderr when one could not be released. */
  releaseHeld(): Promise<void>;
}

/**
 * Releases every GPU lease on the exit paths that skip `finally`: an uncaught error, an unhandled
 * rejection, and a second Ctrl-C / SIGTERM (the first one stops the work, whose `finally` releases).
 */
export function installExitRelease(options: ExitReleaseOptions): ExitRelease {
  const registry = options.registry ?? processLeases;
  let exiting = false;
  const releaseHeld = async (): Promise<void> => {
    if (registry.held().length === 0) return;
    const result = await registry.releaseAll({ timeoutMs: options.timeoutMs ?? 5_000 });
    for (const failed of result.failed) options.write(`crucibleforge: could not release lease ${failed.leaseId}: ${neutralizeControls(failed.message)}\n`);
    for (const id of result.pending) options.write(`crucibleforge: lease ${id} did not answer its release in time; its idle TTL frees it\n`);
  };
  const exitAfterRelease = (code: number): void => {
    if (exiting) return options.process.exit(code); // a third signal: the user insists
    exiting = true;
    void releaseHeld().finally(() => options.process.exit(code));
  };
  const fatal = (what: string) => (value?: unknown) => {
    const message = value instanceof Error ? value.message : String(value);
    options.write(`crucibleforge: ${what}: ${neutralizeControls(message)}\n`);
    if (options.debug && value instanceof Error && value.stack) options.write(`${value.stack}\n`);
    exitAfterRelease(1);
  };
  options.process.on('uncaughtException', fatal('unexpected error'));
  options.process.on('unhandledRejection', fatal('unhandled rejection'));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    options.process.on(signal, () => {
      if (options.alreadyStopping()) exitAfterRelease(130);
    });
  }
  return { releaseHeld };
}
