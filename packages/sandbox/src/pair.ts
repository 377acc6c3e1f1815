import { closeSync } from 'node:fs';
import { start } from './execute';
import type { Pipe } from './pipes';
import { checkStarted, prepare, toResult, type Prepared, type Resolved, type Runtime } from './prepare';
import type { PairResult } from './types';

/** How long the untrusted side may take to exit by itself once the trusted side has ended. */
export const PAIR_GRACE_MS = 300;
export const DEFAULT_REPORT_BYTES = 1024 * 1024;

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

export interface PairSides {
  untrusted: Resolved;
  trusted: Resolved;
  timeoutMs: number;
  signal?: AbortSignal;
  reportBytes: number;
}

/** Runs both sides joined by two pipes (see PairRunRequest). */
export async function runPairOnce(rt: Runtime, sides: PairSides): Promise<PairResult> {
  const prepared: Prepared[] = [];
  let pipes: Pipe[] = [];
  try {
    const untrustedPrep = await prepare(rt, sides.untrusted);
    prepared.push(untrustedPrep);
    const trustedPrep = await prepare(rt, sides.trusted);
    prepared.push(trustedPrep);
    pipes = await rt.pipes.take(2);
    const [toTrusted, toUntrusted] = pipes as [Pipe, Pipe];
    const common = { timeoutMs: sides.timeoutMs, ...(sides.signal ? { signal: sides.signal } : {}) };
    const began = rt.clock.now();
    const trusted = start({ ...trustedPrep.spec, ...common, channel: { read: toTrusted.read, write: toUntrusted.write }, reportBytes: sides.reportBytes });
    const untrusted = start({ ...untrustedPrep.spec, ...common, channel: { read: toUntrusted.read, write: toTrusted.write } });
    // Both children hold their ends now: the host's copies go, so either side sees EOF when the other is gone.
    for (const pipe of pipes) {
      closeQuietly(pipe.read);
      closeQuietly(pipe.write);
    }
    pipes = [];
    for (const p of prepared) p.release();
    let untrustedDone = false;
    const untrustedOutcome = untrusted.outcome.finally(() => {
      untrustedDone = true;
    });
    const trustedOutcome = await trusted.outcome;
    let stopped = false;
    if (!untrustedDone) {
      const grace = new Promise<void>((resolve) => setTimeout(resolve, PAIR_GRACE_MS).unref());
      await Promise.race([untrustedOutcome, grace]);
      if (!untrustedDone) {
        stopped = true;
        untrusted.stop();
      }
    }
    const untrustedFinal = await untrustedOutcome;
    const wallMs = Math.round(rt.clock.now() - began);
    checkStarted(rt, trustedOutcome, 'the trusted side of the pair');
    if (!stopped) checkStarted(rt, untrustedFinal, 'the untrusted side of the pair');
    const t = toResult(rt, trustedOutcome);
    const u = toResult(rt, untrustedFinal);
    const report = trustedOutcome.pairReport!;
    return {
      untrusted: u,
      trusted: t,
      report: report.text(),
      report_truncated: report.truncated,
      untrusted_stopped: stopped,
      wall_ms: wallMs,
      cpu_ms: t.cpu_ms === null || u.cpu_ms === null ? null : t.cpu_ms + u.cpu_ms,
      sandboxed: rt.sandboxed,
    };
  } finally {
    for (const pipe of pipes) {
      closeQuietly(pipe.read);
      closeQuietly(pipe.write);
    }
    await Promise.all(prepared.map((p) => p.cleanup()));
  }
}
