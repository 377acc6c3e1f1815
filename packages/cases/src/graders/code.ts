import type { GradeOutcome } from '@crucibleforge/core';
import type { HarnessResult, Sandbox } from '@crucibleforge/sandbox';
import type { GraderOf } from '../schema/graders';
import { extractCode } from '../text/code';
import { lastMark, MARK } from './harness-marks';
import { nodeHarness } from './harness-node';
import { pythonHarness } from './harness-python';

export const DEFAULT_CODE_TIMEOUT_MS = 15_000;
export const DEFAULT_MEMORY_MB = 1024;

type CodeGrader = GraderOf<'code'>;

export function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${s >= 10 ? Math.round(s) : Math.round(s * 10) / 10} s`;
}

export function buildHarness(grader: CodeGrader, program: string): string {
  return grader.language === 'python'
    ? pythonHarness(program, grader.function, grader.tests, grader.setup)
    : nodeHarness(program, grader.function, grader.tests, grader.setup);
}

/** Runs a program (already extracted) against the case's tests in the sandbox. Infra errors throw. */
export async function runCodeTests(
  grader: CodeGrader,
  program: string,
  sandbox: Sandbox,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<HarnessResult> {
  return sandbox.runHarness({
    language: grader.language,
    program: grader.language === 'python' ? '# the program is embedded in the harness' : '// the program is embedded in the harness',
    harness: buildHarness(grader, program),
    timeoutMs,
    memoryMb: grader.memory_mb ?? DEFAULT_MEMORY_MB,
    ...(signal ? { signal } : {}),
  });
}

function lastStderrLine(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter(Boolean);
  return (lines[lines.length - 1] ?? '').slice(0, 200);
}

/** Turns a harness result into a pass/fail with a one-line reason. */
export function interpretHarness(result: HarnessResult, testCount: number, timeoutMs: number): GradeOutcome {
  const details = { status: result.status, wall_ms: result.wall_ms, sandboxed: result.sandboxed, timeout_ms: timeoutMs };
  const current = lastMark(result.stdout, MARK.test);
  const inTest = current ? ` (in ${current})` : '';
  if (result.passed) return { status: 'pass', reason: `all ${testCount} tests passed`, score: 1, details };
  const failed = lastMark(result.stdout, MARK.fail);
  if (failed) return { status: 'fail', reason: failed, details };
  const load = lastMark(result.stdout, MARK.load);
  if (load) return { status: 'fail', reason: `solution failed to load: ${load}`, details };
  switch (result.status) {
    case 'timeout':
      return { status: 'fail', reason: `TIMEOUT after ${formatSeconds(timeoutMs)}${inTest}`, details };
    case 'memory':
      return { status: 'fail', reason: `memory limit exceeded${inTest}`, details };
    case 'output_limit':
      return { status: 'fail', reason: `output limit exceeded${inTest}`, details };
    case 'killed':
      return { status: 'fail', reason: `killed by ${result.signal ?? 'a signal'}${inTest}`, details };
    default: {
      const err = lastStderrLine(result.stderr);
      if (result.status === 'ok') return { status: 'fail', reason: `exited before the tests finished${inTest}`, details };
      return { status: 'fail', reason: `crashed${inTest}${err ? `: ${err}` : ` with exit code ${result.exit_code}`}`, details };
    }
  }
}

export interface CodeGradeOptions {
  sandbox?: Sandbox;
  timeLimitMs?: number;
  signal?: AbortSignal;
}

/** The code grader: extract, run with the tests in the sandbox, pass only on the sentinel. */
export async function gradeCode(grader: CodeGrader, content: string, options: CodeGradeOptions): Promise<GradeOutcome> {
  const extracted = extractCode(content, grader.language, grader.function);
  if (!extracted.ok) return { status: 'fail', reason: extracted.reason };
  if (!options.sandbox) return { status: 'error', reason: 'the code grader needs a sandbox' };
  const timeoutMs = options.timeLimitMs ?? (grader.timeout_s ?? DEFAULT_CODE_TIMEOUT_MS / 1000) * 1000;
  try {
    const result = await runCodeTests(grader, extracted.code, options.sandbox, timeoutMs, options.signal);
    const outcome = interpretHarness(result, grader.tests.length, timeoutMs);
    if (extracted.note) outcome.details = { ...outcome.details, extraction: extracted.note };
    return outcome;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: unknown }).code;
    return { status: 'error', reason: `sandbox failed: ${message}`, details: { code } };
  }
}
