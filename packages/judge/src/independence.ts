import { sameModel } from '@crucibleforge/core';
import { JudgeError, requireText } from './errors';

export interface IndependenceCheck {
  /** True when overlaps were found and accepted because `force` was set. */
  forced: boolean;
  /** Candidate model ids the judge was found to be (empty when independent). */
  overlaps: string[];
}

/**
 * The self-judging guard: throws JUDGE_SELF_SCORING when the judge model is one of the candidates,
 * unless `force` is set (then the overlaps are returned so the caller can warn and record them).
 */
export function checkJudgeIndependence(
  judgeModelId: string,
  candidateModelIds: readonly string[],
  options: { force?: boolean } = {},
): IndependenceCheck {
  requireText('judgeModelId', judgeModelId);
  const overlaps = candidateModelIds.filter((id, i) => sameModel(judgeModelId, requireText(`candidateModelIds[${i}]`, id)));
  if (overlaps.length === 0) return { forced: false, overlaps };
  if (options.force === true) return { forced: true, overlaps };
  throw new JudgeError(
    'JUDGE_SELF_SCORING',
    `the judge model ${judgeModelId} is also under test (${overlaps.join(', ')}); a model may not score its own answers. ` +
      'Choose another judge, or force it knowingly.',
    { details: { judgeModelId, overlaps } },
  );
}
