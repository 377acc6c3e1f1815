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

/**
 * The grading pattern: `program` (the model's code) followed by `harness` (the case's tests), in one
 * process. The harness must print the placeholder `SENTINEL_PLACEHOLDER` as its last act when every
 * test passed; the sandbox replaces it with a per-run random token and reports `passed` only when that
 * token appears on stdout. Exiting 0 cannot fake a pass.
 */
export interface HarnessRunRequest extends Omit<SandboxRunRequest, 'source'> {
  program: string;
  harness: string;
}

export interface HarnessResult extends SandboxResult {
  passed: boolean;
  sentinel_seen: boolean;
}

export const SENTINEL_PLACEHOLDER = '__CRUCIBLE_SENTINEL__';

export interface Sandbox {
  /** false only when created with allowUnsandboxed and bwrap is missing: results carry sandboxed: false. */
  readonly sandboxed: boolean;
  run(request: SandboxRunRequest): Promise<SandboxResult>;
  runHarness(request: HarnessRunRequest): Promise<HarnessResult>;
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
