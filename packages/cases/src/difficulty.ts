import type { Difficulty } from '@crucibleforge/core';
import { caseRevision } from './revision';
import type { BlindCalibration, CaseDef } from './schema/case';

/**
 * The label blind evidence supports: hard when at most a third of the attempts passed, medium up to two
 * thirds, easy above (with 3 attempts: 0–1 hard, 2 medium, 3 easy).
 */
export function difficultyFromEvidence(c: Pick<BlindCalibration, 'attempts' | 'passes'>): Difficulty {
  if (c.passes * 3 <= c.attempts) return 'hard';
  if (c.passes * 3 <= c.attempts * 2) return 'medium';
  return 'easy';
}

/** Problems with a case's difficulty label and its calibration, as (path, message) pairs. */
export function calibrationProblems(def: CaseDef): { path: (string | number)[]; message: string }[] {
  const out: { path: (string | number)[]; message: string }[] = [];
  const cal = def.calibration;
  if (!cal) {
    if (def.difficulty === 'hard' && def.tags?.includes('candidate-hard')) {
      out.push({ path: ['difficulty'], message: 'a candidate-hard case is labelled hard only with blind calibration evidence (calibration)' });
    }
    return out;
  }
  if (cal.passes > cal.attempts) out.push({ path: ['calibration', 'passes'], message: `${cal.passes} passes out of ${cal.attempts} attempts` });
  const evidence = difficultyFromEvidence(cal);
  if (def.difficulty !== evidence) {
    out.push({
      path: ['difficulty'],
      message: `labelled ${def.difficulty}, but ${cal.passes} of ${cal.attempts} blind attempts passed: the evidence says ${evidence}`,
    });
  }
  if (cal.passes === 0 && !cal.review) {
    out.push({ path: ['calibration', 'review'], message: 'no blind attempt passed: say what the hand re-check confirmed (review)' });
  }
  const revision = caseRevision(def);
  if (cal.revision !== revision) {
    out.push({
      path: ['calibration', 'revision'],
      message: `the attempts answered revision ${cal.revision}, the question is now ${revision}: calibrate again`,
    });
  }
  return out;
}
