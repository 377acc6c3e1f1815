import { constants } from 'node:os';
import type { SandboxStatus } from './types';

/** What is known once the run is over, from the outside and from the wrapper's report. */
export interface RunFacts {
  /** We killed it for exceeding the wall time. */
  timedOut: boolean;
  /** We killed it for printing past the output kill threshold. */
  outputKilled: boolean;
  /** We killed it because the caller's signal aborted. */
  aborted: boolean;
  /** The exit code of the process we started (bwrap or the wrapper), when it exited. */
  exitCode: number | null;
  /** The signal that ended the process we started, when one did. */
  signal: string | null;
  /** The program's status as the wrapper saw it ($?), when reported. */
  wrapperStatus: number | null;
  /** The end of stderr, for recognising out-of-memory crashes. */
  stderrTail: string;
}

const SIGNAL_NAMES = new Map<number, string>();
// First name wins: os.constants lists SIGABRT before its alias SIGIOT, SIGIO before SIGPOLL.
for (const [name, num] of Object.entries(constants.signals)) if (!SIGNAL_NAMES.has(num)) SIGNAL_NAMES.set(num, name);

/** `128 + N` from a shell or bwrap means "killed by signal N"; returns that signal's name. */
export function signalFromStatus(status: number): string | null {
  if (status <= 128 || status > 128 + 64) return null;
  return SIGNAL_NAMES.get(status - 128) ?? null;
}

const MEMORY_PATTERNS = [
  /\bMemoryError\b/,
  /JavaScript heap out of memory/,
  /Fatal process out of memory/i,
  /Array buffer allocation failed/,
  /\bENOMEM\b/,
  /Cannot allocate memory/,
  /std::bad_alloc/,
  /failed to allocate/i,
  /Reached heap limit/,
];

/** True when the stderr tail carries an allocation failure message from Python, Node or libc. */
export function looksLikeMemoryFailure(stderrTail: string): boolean {
  return MEMORY_PATTERNS.some((pattern) => pattern.test(stderrTail));
}

export interface Outcome {
  status: SandboxStatus;
  exit_code: number | null;
  signal: string | null;
}

/**
 * Decides the result status. Order: our own kills first (timeout, output limit, abort), then the
 * program's fate: a memory failure, a CPU-limit signal (counts as timeout), another signal, its exit code.
 */
export function classify(facts: RunFacts): Outcome {
  const status = facts.wrapperStatus ?? facts.exitCode;
  const signal = facts.signal ?? (status === null ? null : signalFromStatus(status));
  const exitCode = signal === null ? status : null;
  if (facts.timedOut) return { status: 'timeout', exit_code: exitCode, signal: signal ?? 'SIGKILL' };
  if (facts.outputKilled) return { status: 'output_limit', exit_code: exitCode, signal: signal ?? 'SIGKILL' };
  if (facts.aborted) return { status: 'killed', exit_code: exitCode, signal: signal ?? 'SIGKILL' };
  if (exitCode !== 0 && looksLikeMemoryFailure(facts.stderrTail)) return { status: 'memory', exit_code: exitCode, signal };
  if (signal === 'SIGXCPU') return { status: 'timeout', exit_code: null, signal };
  if (signal !== null) return { status: 'killed', exit_code: null, signal };
  if (exitCode === 0) return { status: 'ok', exit_code: 0, signal: null };
  return { status: 'error', exit_code: exitCode, signal: null };
}
