/**
 * `cases calibrate`: blind attempts at one case graded exactly as a run grades, the calibration they make
 * and the label their pass rate supports, and the rules a recorded calibration must meet.
 */
import type { Difficulty } from '@crucibleforge/core';
import type { Sandbox } from '@crucibleforge/sandbox';
import { difficultyFromEvidence } from './difficulty';
import { grade } from './grade';
import type { MaterializedCase } from './materialize';
import { parseReplyFile } from './reply-file';
import type { BlindCalibration, CaseDef } from './schema/case';

export interface AttemptVerdict {
  file: string;
  status: string;
  reason: string;
}

export interface CalibrationResult {
  verdicts: AttemptVerdict[];
  calibration: BlindCalibration;
  evidence: Difficulty;
}

/** Grades every attempt (a reply file's text, read as `cases grade` reads --reply) and makes the calibration of them. */
export async function calibrateAttempts(
  c: MaterializedCase,
  attempts: readonly { file: string; text: string }[],
  options: { solver: string; date: string; review?: string | undefined; sandbox?: Sandbox | undefined; signal?: AbortSignal | undefined },
): Promise<CalibrationResult> {
  const verdicts: AttemptVerdict[] = [];
  for (const a of attempts) {
    const outcome = await grade(c, parseReplyFile(a.text, a.file), { ...(options.sandbox ? { sandbox: options.sandbox } : {}), ...(options.signal ? { signal: options.signal } : {}) });
    verdicts.push({ file: a.file, status: outcome.status, reason: outcome.reason });
  }
  const calibration: BlindCalibration = {
    attempts: verdicts.length,
    passes: verdicts.filter((v) => v.status === 'pass').length,
    solver: options.solver,
    date: options.date,
    revision: c.revision,
    ...(c.seed === null ? {} : { seed: c.seed }),
    ...(options.review ? { review: options.review } : {}),
  };
  return { verdicts, calibration, evidence: difficultyFromEvidence(calibration) };
}

/** Why this calibration may not be recorded in the case file (null: it may). */
export function calibrationWriteProblem(def: Pick<CaseDef, 'why_hard'>, file: string, result: CalibrationResult): string | null {
  const { calibration, evidence } = result;
  if (calibration.attempts < 3) return `--write needs at least 3 attempts (got ${calibration.attempts})`;
  if (calibration.passes === 0 && !calibration.review) return 'no attempt passed: re-check the case by hand and say what you confirmed with --review TEXT';
  if (evidence === 'hard' && !def.why_hard) return `${file}: the evidence says hard; add why_hard (what makes it hard) first`;
  return null;
}
