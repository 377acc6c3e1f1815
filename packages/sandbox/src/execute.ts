import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { execa } from 'execa';
import type { Clock } from '@crucibleforge/core';
import { CappedCapture } from './capture';
import type { RunFacts } from './classify';
import { identity } from './detect';
import { parseWrapperReport, type WrapperReport } from './limits';

/** One process launch with a wall-time kill, bounded capture and the wrapper's fd-3 report. */
export interface LaunchSpec {
  file: string;
  args: readonly string[];
  cwd: string;
  /** Launch as this uid/gid (root dropping privileges); null keeps ours. */
  uid: number | null;
  env: Readonly<Record<string, string>>;
  stdin?: string;
  timeoutMs: number;
  /** Bytes of each stream kept. */
  capBytes: number;
  /** Kill the run when one stream has produced more than this many bytes. */
  killBytes: number;
  signal?: AbortSignal;
  clock: Clock;
  /** Start in a new process group and kill the whole group (used without bwrap). */
  killGroup: boolean;
  /** bwrap reports JSON status on STATUS_FD: watch its init pid, kill it too, wait until it is gone. */
  bwrapStatus?: boolean;
  /** Host fds handed to the program as CHANNEL_READ_FD / CHANNEL_WRITE_FD (a pair's pipes). */
  channel?: { read: number; write: number };
  /** Capture what the program writes on PAIR_REPORT_FD, keeping this many bytes. */
  reportBytes?: number;
  /** A host fd holding the seccomp filter, handed to bwrap as SECCOMP_FD. */
  seccompFd?: number;
}

/** The fd bwrap's --json-status-fd writes to (fd 3 is the wrapper's report). */
export const STATUS_FD = 4;
/** A pair's channel: each side reads the other's frames on 5 and writes its own on 6. */
export const CHANNEL_READ_FD = 5;
export const CHANNEL_WRITE_FD = 6;
/** The trusted side of a pair writes its report to the host on 7. */
export const PAIR_REPORT_FD = 7;
/** bwrap reads the seccomp filter from 8 (--seccomp 8). */
export const SECCOMP_FD = 8;

/** How long to wait for the sandbox's init (and so its whole pid namespace) to be gone. */
const REAP_WAIT_MS = 3000;

/** True when `pid` no longer runs: no /proc entry, or a zombie (a pid-namespace init is a zombie only once all its processes are dead). */
async function isGone(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    return true;
  }
}

async function waitGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 1; ; delay = Math.min(delay * 2, 50)) {
    if (await isGone(pid)) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

function parseInitPid(text: string): number | null {
  const match = /"child-pid"\s*:\s*(\d+)/.exec(text);
  return match ? Number(match[1]) : null;
}

export interface LaunchOutcome {
  facts: RunFacts;
  stdout: CappedCapture;
  stderr: CappedCapture;
  wallMs: number;
  report: WrapperReport;
  /** What the program wrote on PAIR_REPORT_FD (when asked for). */
  pairReport: CappedCapture | null;
  /** Why the process could not be started at all (then nothing ran). */
  spawnError: string | null;
}

/** A started launch: its outcome, and a way for the host to end it (counted as `aborted`). */
export interface Running {
  outcome: Promise<LaunchOutcome>;
  stop(): void;
}

/** How long to wait for the output pipes to close after the process we started exited. */
const DRAIN_GRACE_MS = 500;

export function launch(spec: LaunchSpec): Promise<LaunchOutcome> {
  return start(spec).outcome;
}

/** Spawns at once (so fds handed to the child may be closed by the caller right after) and watches the run. */
export function start(spec: LaunchSpec): Running {
  const stdout = new CappedCapture(spec.capBytes);
  const stderr = new CappedCapture(spec.capBytes);
  const pairReport = spec.reportBytes === undefined ? null : new CappedCapture(spec.reportBytes);
  let reportText = '';
  let statusText = '';
  let timedOut = false;
  let outputKilled = false;
  let aborted = false;

  // Host fds handed over as they are (Node dups them into the child). execa's types allow integers only
  // for fds 0-2, its runtime (Node's spawn) for every index.
  const stdio = [
    spec.stdin === undefined ? 'ignore' : 'pipe',
    'pipe',
    'pipe',
    'pipe',
    spec.bwrapStatus ? 'pipe' : 'ignore',
    spec.channel?.read ?? 'ignore',
    spec.channel?.write ?? 'ignore',
    pairReport ? 'pipe' : 'ignore',
    spec.seccompFd ?? 'ignore',
  ] as unknown as ['pipe', 'pipe', 'pipe', 'pipe', 'pipe', 'ignore', 'ignore', 'pipe', 'ignore'];
  const started = spec.clock.now();
  const child = execa(spec.file, [...spec.args], {
    cwd: spec.cwd,
    extendEnv: false,
    env: { ...spec.env },
    stdio,
    buffer: false,
    reject: false,
    stripFinalNewline: false,
    detached: spec.killGroup,
    cleanup: true,
    ...identity(spec.uid),
  });

  const signalQuietly = (pid: number) => {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  let killedByUs = false;
  const kill = () => {
    killedByUs = true;
    if (spec.killGroup && child.pid !== undefined) signalQuietly(-child.pid);
    else child.kill('SIGKILL');
    // The sandbox's init dies with bwrap (--die-with-parent); killing it directly does not wait for that.
    const init = parseInitPid(statusText);
    if (init !== null) signalQuietly(init);
  };
  const onOutput = (capture: CappedCapture) => (chunk: Buffer) => {
    capture.push(chunk);
    if (capture.totalBytes > spec.killBytes && !outputKilled) {
      outputKilled = true;
      kill();
    }
  };
  child.stdout?.on('data', onOutput(stdout));
  child.stderr?.on('data', onOutput(stderr));
  const reportStream = child.stdio[3];
  reportStream?.on('data', (chunk: Buffer) => {
    if (reportText.length < 4096) reportText += chunk.toString('utf8');
  });
  child.stdio[STATUS_FD]?.on('data', (chunk: Buffer) => {
    if (statusText.length < 4096) statusText += chunk.toString('utf8');
  });
  const pairReportStream = pairReport ? ((child.stdio as readonly unknown[])[PAIR_REPORT_FD] as Readable | undefined) : undefined;
  pairReportStream?.on('data', (chunk: Buffer) => pairReport!.push(chunk));
  if (spec.stdin !== undefined && child.stdin) {
    child.stdin.on('error', () => {}); // the program may exit without reading its input
    child.stdin.end(spec.stdin);
  }

  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, spec.timeoutMs);
  const onAbort = () => {
    aborted = true;
    kill();
  };
  if (spec.signal?.aborted) onAbort();
  else spec.signal?.addEventListener('abort', onAbort, { once: true });

  const outcome = watch();
  return {
    outcome,
    stop() {
      if (!aborted) {
        aborted = true;
        kill();
      }
    },
  };

  async function watch(): Promise<LaunchOutcome> {
    let spawnError: string | null = null;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal }));
      // A launch that fails (ENOENT, EACCES) never emits 'exit'.
      child.once('error', (error: Error) => {
        if (child.pid === undefined) {
          spawnError = error.message;
          resolve({ code: null, signal: null });
        }
      });
    });
    const done = child.then(
      () => undefined,
      () => undefined,
    );
    const { code, signal } = await exited;
    const wallMs = spec.clock.now() - started;
    clearTimeout(timer);
    spec.signal?.removeEventListener('abort', onAbort);
    if (spec.killGroup && child.pid !== undefined) {
      // Without a pid namespace, leftovers of the program share its process group: end them too.
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // nothing left
      }
    }
    // On a normal end bwrap exits only after the init (and so the namespace) is gone; when bwrap itself
    // was killed, the init dies a moment later: wait for it, so nothing outlives this call.
    const init = killedByUs || signal !== null ? parseInitPid(statusText) : null;
    if (init !== null && !(await waitGone(init, REAP_WAIT_MS))) {
      signalQuietly(init);
      await waitGone(init, REAP_WAIT_MS);
    }
    // Streams close once every holder of the pipes is gone; never wait forever for that.
    let graceTimer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      graceTimer = setTimeout(() => {
        for (const stream of [child.stdout, child.stderr, reportStream, child.stdio[STATUS_FD], pairReportStream]) stream?.destroy();
        resolve();
      }, DRAIN_GRACE_MS);
    });
    await Promise.race([done, grace]);
    clearTimeout(graceTimer);

    const report = parseWrapperReport(reportText);
    return {
      facts: {
        timedOut,
        outputKilled,
        aborted,
        exitCode: code,
        signal,
        wrapperStatus: report.exitStatus,
        stderrTail: stderr.tailText(),
      },
      stdout,
      stderr,
      wallMs: Math.round(wallMs),
      report,
      pairReport,
      spawnError,
    };
  }
}
