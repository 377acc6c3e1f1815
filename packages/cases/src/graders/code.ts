import type { GradeOutcome } from '@crucibleforge/core';
import type { PairResult, Sandbox } from '@crucibleforge/sandbox';
import type { GraderOf } from '../schema/graders';
import { extractCode } from '../text/code';
import { codeRunRequest } from './code-plan';
import { interpretCodeRun } from './code-verdict';

export const DEFAULT_CODE_TIMEOUT_MS = 15_000;

type CodeGrader = GraderOf<'code'>;

export interface CodeRun {
  outcome: GradeOutcome;
  /** Both sides' results and the checker's report, for measurements (calibration). */
  result: PairResult;
}

/**
 * Runs a program (already extracted) against the case's tests: the program in one sandbox, the checker
 * (tests, expected values) in another, joined by pipes. Infra errors throw.
 */
export async function runCodeTests(grader: CodeGrader, program: string, sandbox: Sandbox, timeoutMs: number, signal?: AbortSignal): Promise<CodeRun> {
  const result = await sandbox.runPair(codeRunRequest(grader, program, timeoutMs, signal));
  return { outcome: interpretCodeRun(result, grader.tests, timeoutMs), result };
}

export interface CodeGradeOptions {
  sandbox?: Sandbox;
  timeLimitMs?: number;
  signal?: AbortSignal;
}

/** The code grader: extract, run against the tests with the checker in its own sandbox, pass only on its report. */
export async function gradeCode(grader: CodeGrader, content: string, options: CodeGradeOptions): Promise<GradeOutcome> {
  const extracted = extractCode(content, grader.language, grader.function);
  if (!extracted.ok) return { status: 'fail', reason: extracted.reason };
  if (!options.sandbox) return { status: 'error', reason: 'the code grader needs a sandbox' };
  const timeoutMs = options.timeLimitMs ?? (grader.timeout_s ?? DEFAULT_CODE_TIMEOUT_MS / 1000) * 1000;
  try {
    const { outcome } = await runCodeTests(grader, extracted.code, options.sandbox, timeoutMs, options.signal);
    if (extracted.note) outcome.details = { ...outcome.details, extraction: extracted.note };
    return outcome;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: unknown }).code;
    return { status: 'error', reason: `sandbox failed: ${message}`, details: { code } };
  }
}
