/**
 * The public contract of @crucibleforge/sandbox. Other packages (cases, runner, cli) code against
 * these types; change them only together with their users.
 */
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
}
