import { closeSync, constants, openSync, unlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { CrucibleError } from '@crucibleforge/core';
import { start } from './execute';
import { checkStarted, prepare, toResult, type Prepared, type Resolved, type Runtime, type SandboxErrorCode } from './prepare';
import type { PairResult } from './types';

/** How long the untrusted side may take to exit by itself once the trusted side has ended. */
export const PAIR_GRACE_MS = 300;
export const DEFAULT_REPORT_BYTES = 1024 * 1024;

interface Pipe {
  read: number;
  write: number;
}

/**
 * Two anonymous-like pipes from FIFOs in a private host folder (Node cannot call pipe(2)). Opening the
 * FIFO read-write first lets the read and write ends open without blocking; the FIFO names are removed at
 * once, so only the fds exist. The fds are blocking, as both sides' synchronous reads need.
 */
async function makePipes(rt: Runtime, count: number): Promise<Pipe[]> {
  if (rt.mkfifoPath === null) throw new CrucibleError<SandboxErrorCode>('SANDBOX_FAILED', 'a sandbox pair needs mkfifo (coreutils), which was not found');
  const dir = await mkdtemp(join(rt.hostTmpDir, 'crucible-pair-'));
  try {
    const names = Array.from({ length: count }, (_, i) => join(dir, `pipe${i}`));
    const made = await execa(rt.mkfifoPath, ['-m', '600', ...names], { reject: false, extendEnv: false, env: {}, stdin: 'ignore' });
    if (made.exitCode !== 0) throw new CrucibleError<SandboxErrorCode>('SANDBOX_FAILED', `mkfifo failed: ${String(made.stderr).trim()}`);
    return names.map((name) => {
      const both = openSync(name, constants.O_RDWR);
      try {
        const write = openSync(name, constants.O_WRONLY);
        const read = openSync(name, constants.O_RDONLY);
        unlinkSync(name);
        return { read, write };
      } finally {
        closeSync(both);
      }
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

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
    pipes = await makePipes(rt, 2);
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
