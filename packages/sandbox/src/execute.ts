import { readFile } from 'node:fs/promises';
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
  /** A token to watch for on stdout (the harness sentinel). */
  token: string | null;
  signal?: AbortSignal;
  clock: Clock;
  /** Start in a new process group and kill the whole group (used without bwrap). */
  killGroup: boolean;
  /** bwrap reports JSON status on STATUS_FD: watch its init pid, kill it too, wait until it is gone. */
  bwrapStatus?: boolean;
}

/** The fd bwrap's --json-status-fd writes to (fd 3 is the wrapper's report). */
export const STATUS_FD = 4;

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
  /** Why the process could not be started at all (then nothing ran). */
  spawnError: string | null;
}

/** How long to wait for the output pipes to close after the process we started exited. */
const DRAIN_GRACE_MS = 500;

export async function launch(spec: LaunchSpec): Promise<LaunchOutcome> {
  const stdout = new CappedCapture(spec.capBytes, spec.token);
  const stderr = new CappedCapture(spec.capBytes);
  let reportText = '';
  let statusText = '';
  let timedOut = false;
  let outputKilled = false;
  let aborted = false;

  const started = spec.clock.now();
  const child = execa(spec.file, [...spec.args], {
    cwd: spec.cwd,
    extendEnv: false,
    env: { ...spec.env },
    stdio: [spec.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe', 'pipe', spec.bwrapStatus ? 'pipe' : 'ignore'],
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
      for (const stream of [child.stdout, child.stderr, reportStream, child.stdio[STATUS_FD]]) stream?.destroy();
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
    spawnError,
  };
}
