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
}

export interface LaunchOutcome {
  facts: RunFacts;
  stdout: CappedCapture;
  stderr: CappedCapture;
  wallMs: number;
  report: WrapperReport;
}

/** How long to wait for the output pipes to close after the process we started exited. */
const DRAIN_GRACE_MS = 500;

export async function launch(spec: LaunchSpec): Promise<LaunchOutcome> {
  const stdout = new CappedCapture(spec.capBytes, spec.token);
  const stderr = new CappedCapture(spec.capBytes);
  let reportText = '';
  let timedOut = false;
  let outputKilled = false;
  let aborted = false;

  const started = spec.clock.now();
  const child = execa(spec.file, [...spec.args], {
    cwd: spec.cwd,
    extendEnv: false,
    env: { ...spec.env },
    stdio: [spec.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe', 'pipe'],
    buffer: false,
    reject: false,
    stripFinalNewline: false,
    detached: spec.killGroup,
    cleanup: true,
    ...identity(spec.uid),
  });

  const kill = () => {
    try {
      if (spec.killGroup && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      else child.kill('SIGKILL');
    } catch {
      // already gone
    }
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

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
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
  // Streams close once every holder of the pipes is gone; never wait forever for that.
  let graceTimer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => {
    graceTimer = setTimeout(() => {
      for (const stream of [child.stdout, child.stderr, reportStream]) stream?.destroy();
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
  };
}
