// The case format: zod schemas (the single source of truth) and the JSON Schema
export { CaseSchema } from './schema/case';
export type { CaseDef, LoadedCase, Reference, RefCall } from './schema/case';
export { GraderSchema } from './schema/graders';
export type { Grader, GraderType } from './schema/graders';
export { CheckSchema } from './schema/checks';
export type { Check } from './schema/checks';
export { caseJsonSchema } from './json-schema';

// Loading a case directory and its profiles
export { loadCaseSet } from './case-set';
export type { CaseSet } from './case-set';
export { parseCaseFile } from './loader';
export { formatProblem } from './yaml-source';
export type { SourceProblem } from './yaml-source';
export { ProfileSchema, findProfile, applyProfile, assertKnownIds } from './profiles';
export type { Profile } from './profiles';

// Planning and materialising a case for a run
export { planCase, caseRequest, contextSkip } from './planned';
export type { PlannedCase, CaseRequest, JudgeInput } from './planned';
export { materializeCase, fillCase } from './materialize';
export type { MaterializedCase, MaterializeOptions } from './materialize';
export { caseSeed } from './prng';
export { caseRevision } from './revision';
export type { ConcreteCase, GradeInput, GradeContext } from './types';

// Playing and grading a conversation
export { initialMessages, nextMessages } from './conversation';
export type { NextStep } from './conversation';
export { referenceText, referenceTurn, referenceTranscript } from './reference';
// The row a report reads (ResultRowInput['case'] and ['reply'] name what a case and a reply must carry)
export { resultRow } from './harness';
export type { ResultRowInput } from './harness';

export { grade, GRADER_VERSION } from './grade';
export { extractAnswer } from './answers/index';
export type { AnswerSpec, Extracted, ExtractOptions } from './answers/index';
export { parseReplyFile } from './reply-file';

// Verifying the set (cases verify)
export { verifyCases } from './verify/index';
export { formatVerifySummary } from './verify/report';
export type { CaseVerifyResult, VerifyOptions, VerifyReport } from './verify/report';

// Errors
export { CASES_ERRORS, isCasesError } from './errors';
export type { CasesErrorCode } from './errors';

// Text helpers other packages read replies with
export { numbersIn } from './text/numbers';
