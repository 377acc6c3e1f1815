/**
 * The public contract of @crucibleforge/sandbox. Other packages (cases, runner, cli) code against
 * these types; change them only together with their users.
 */
import type { Clock } from '@crucibleforge/core';

export type SandboxLanguage = 'python' | 'node';

export type SandboxStatus = 'ok' | 'error' | 'timeout' | 'memory' | 'output_limit' | 'killed';

export interface SandboxRunRequest {
  language: SandboxLanguage;
  /** The program text; written to a file in a private work dir and run with the interpreter. */
  source: string;
  stdin?: string;
  /** Wall-time limit in ms (default 15 000). */
  timeoutMs?: number;
  /** Address-space limit in MiB (default 1024). */
  memoryMb?: number;
  /** Extra files placed next to the program (name → content), read-only for nothing else. */
  files?: Record<string, string>;
  signal?: AbortSignal;
  /** CPU-time limit per process in seconds (RLIMIT_CPU; default: the wall limit, rounded up). */
  cpuSeconds?: number;
  /** Processes + threads the program may have at once (RLIMIT_NPROC in its user namespace; default 64). */
  maxProcesses?: number;
  /** Bytes of stdout and of stderr kept in the result (default 1 MiB each); more is flagged as truncated. */
  maxOutputBytes?: number;
  /** Size of the private writable /tmp (and cwd) in MiB (default 64). */
  tmpMb?: number;
}

export interface SandboxResult {
  status: SandboxStatus;
  exit_code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  stdout_truncated: boolean;
  stderr_truncated: boolean;
  wall_ms: number;
  cpu_ms: number | null;
  sandboxed: boolean;
}

/** One side of a pair: a run request without the pair-wide wall limit, signal and stdin. */
export type PairSideRequest = Omit<SandboxRunRequest, 'timeoutMs' | 'signal' | 'stdin'>;

/**
 * Two programs, each in its own sandbox (own pid, mount, ipc and network namespaces, own /tmp), joined
 * only by two pipes the host creates: each side reads the other's bytes on fd 5 and writes its own on
 * fd 6. The trusted side also writes a report for the host on fd 7; the untrusted side has no way to
 * reach the host but its (capped) stdout and stderr. When the trusted side ends, the untrusted side
 * gets a short grace to exit by itself on the closed channel, then is killed.
 */
export interface PairRunRequest {
  untrusted: PairSideRequest;
  trusted: PairSideRequest;
  /** Wall-time limit of the whole pair in ms (default 15 000); both sides are killed at it. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Bytes of the trusted side's report kept (default 1 MiB). */
  maxReportBytes?: number;
}

export interface PairResult {
  untrusted: SandboxResult;
  trusted: SandboxResult;
  /** What the trusted side wrote on fd 7. */
  report: string;
  report_truncated: boolean;
  /** The host killed the untrusted side after the trusted side had ended (it did not exit within the grace). */
  untrusted_stopped: boolean;
  /** From the first launch to the last exit. */
  wall_ms: number;
  /** Both sides' CPU time summed; null when either was not reported (a side was killed). */
  cpu_ms: number | null;
  sandboxed: boolean;
}

export interface Sandbox {
  /** false only when created with allowUnsandboxed and bwrap is missing: results carry sandboxed: false. */
  readonly sandboxed: boolean;
  run(request: SandboxRunRequest): Promise<SandboxResult>;
  /** Runs two programs in two sandboxes joined by pipes (see PairRunRequest); takes one pool slot. */
  runPair(request: PairRunRequest): Promise<PairResult>;
}

export interface SandboxOptions {
  /** Run without bwrap (with the limits still possible) instead of refusing. Default false. */
  allowUnsandboxed?: boolean;
  /** Concurrent runs at most (default: number of cores). */
  poolSize?: number;
  /** bwrap to use (default: the first of /usr/bin/bwrap, /usr/local/bin/bwrap, /bin/bwrap); tests point it at nothing. */
  bwrapPath?: string;
  /** When this process is root, launch bwrap as this uid so RLIMIT_NPROC applies (default 65534); null keeps root. */
  runAsUid?: number | null;
  /** Python interpreter (default /usr/bin/python3). */
  pythonPath?: string;
  /** Node interpreter (default /usr/bin/node, else /usr/local/bin/node, else this process's own). */
  nodePath?: string;
  /** Host folder for the per-run temp dirs holding the program files (default os.tmpdir()). */
  hostTmpDir?: string;
  /** Monotonic clock for wall_ms (default performance.now). */
  clock?: Clock;
}
