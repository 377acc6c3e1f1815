export { JudgeError } from './errors';
export type { JudgeErrorCode } from './errors';

export { JUDGE_PROMPT_VERSION, PAIRWISE_PROMPT_VERSION, BORDERLINE_MARKER } from './prompts';

export { judgeAgainstReference, referenceJudgeIdentity, isCloseCallNote } from './reference';
export { completerFrom } from './completer';
export type { ChatCompleteFn, JudgeCompleter } from './completer';
export type {
  JudgeModelRef,
  JudgeCallOptions,
  ReferenceJudgeInput,
  ReferenceJudgeOptions,
  JudgeTrace,
  SampleTrace,
} from './reference';
export type { AttemptTrace } from './ask';

export { extractJson } from './json-extract';
export type { ExtractResult } from './json-extract';
export { fenceToken, readFencedPrompt } from './fence';
export type { FencedPrompt } from './fence';

export { runCanary, assertCanary, formatCanaryReport, CANARY_PROBES } from './canary';
export type { CanaryProbe, CanaryOptions, CanaryReport, CanaryResult, CanaryFailure } from './canary';

export { checkJudgeIndependence } from './independence';
export type { IndependenceCheck } from './independence';

export { judgePair, pairwiseJudgeIdentity, combineOrders } from './pairwise';
export type { PairInput, PairOutcome, PairVerdict, Preference } from './pairwise';

export { aggregatePairwise, bradleyTerry, eloFromStrength } from './aggregate';
export type { PairwiseGame, PairwiseAggregate, AggregateOptions } from './aggregate';

export { needsJudging, gradeFromVerdict, sameJudge } from './records';
