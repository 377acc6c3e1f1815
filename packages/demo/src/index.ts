export { createDemoModels, DEMO_PACES } from './models';
export { planFaults, faultyAnswer } from './faults';
export { createCaseMatcher, assistantTurn } from './match';
export { judgeAnswer, readJudgePrompt } from './judge';
export type { ReadJudgePrompt } from './judge';
export { compareWithReference, missingFromFact } from './facts';
export type { FactDecision } from './facts';
export { referenceAnswer, answerMissingFact, overflowingReasoning, FILLER_ANSWER } from './answers';
export type { DemoModels, DemoModelsOptions, DemoPace, FaultKind, PlannedFault } from './types';
