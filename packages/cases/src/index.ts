// Schema (the single source of truth) and its JSON Schema
export { CaseSchema, CategorySchema, DifficultySchema, ReferenceSchema, VerifySpecSchema } from './schema/case';
export type { CaseDef, LoadedCase, Reference, RefCall, VerifySpec, BlindCalibration } from './schema/case';
export { GraderSchema } from './schema/graders';
export type { AgentPart, CodeTest, Grader, GraderOf, GraderType } from './schema/graders';
export { CheckSchema } from './schema/checks';
export type { Check } from './schema/checks';
export type { ArgMatcher, CallMatcher, Count, HaystackSpec, Language, Needles, ParamSpec, Tool, ToolScript, TypeSpec } from './schema/common';
export { caseJsonSchema, caseJsonSchemaText } from './json-schema';

// Loading and profiles
export { loadCases, parseCaseFile, sortCases, NON_CASE_DIRS } from './loader';
export type { LoadProblem, LoadResult } from './loader';
export { formatProblem } from './yaml-source';
export type { SourceProblem } from './yaml-source';
export { ProfileSchema, loadProfiles, parseProfile, applyProfile, findProfile, matchesSelector, assertKnownIds, closestNames } from './profiles';
export type { Profile, ProfileLoad, Selector } from './profiles';
export { caseRevision, canonicalJson, QUESTION_FIELDS } from './revision';

// Seeds, materialisation, haystacks
export { caseSeed, drawParams, prng, hash32 } from './prng';
export { materializeCase, fillCase, cachedDerive, contextSkip, isSeeded, verifySeeds, runDerive, toToolDefinition, DEFAULT_VERIFY_SEEDS } from './materialize';
export type { MaterializedCase, MaterializeOptions, DeriveOutput } from './materialize';
export { fillTemplate, placeholders } from './template';
export { buildHaystack, estimateTokens } from './haystack/build';
export type { Haystack } from './haystack/build';
export type { ConcreteCase, GradeContext, GradeInput } from './types';

// Conversation driving and references
export { initialMessages, nextMessages, scriptedToolResults, DEFAULT_MAX_TURNS } from './conversation';
export type { NextStep } from './conversation';
export { referenceText, referenceTurn, referenceTranscript } from './reference';
export { judgeInputFor, resultRow } from './harness';
export type { CaseJudgeInput, CaseIdentity, ResultRowInput, RowReply } from './harness';

// Grading
export { grade, GRADER_VERSION } from './grade';
export { gradeCode, runCodeTests, DEFAULT_CODE_TIMEOUT_MS } from './graders/code';
export { gradeNumber, gradeExact, gradeChoice, gradeAssignments } from './graders/answer';
export { extractAnswer } from './answers/index';
export type { AnswerSpec, Extracted, ExtractOptions } from './answers/index';
export { gradeContains, gradeRegex, gradeJson, needlesProblem } from './graders/text';
export { gradeToolCalls, assistantTurns } from './graders/tool-calls';
export { argProblem, callProblem, normalizeDate, parseInstant } from './graders/tool-matchers';
export { gradeAgent, concisenessRatio } from './graders/agent';
export { runCheck, runChecks } from './checks/library';
export type { CheckResult } from './checks/library';
export { words, sentences, paragraphs, bulletLines } from './checks/units';
export { extractCode, fencedBlocks } from './text/code';
export { extractJson } from './text/json';
export { stripThinking, containsNeedle } from './text/normalize';
export { parseRational, numbersIn } from './text/numbers';

// Calibration and verify
export { calibrateCase, cachedCalibration, calibratedLimit, DEFAULT_COMPLEXITY_MULTIPLE, DEFAULT_COMPLEXITY_FLOOR_S, WALL_HEADROOM } from './calibration';
export type { Calibration, CalibratedLimit } from './calibration';
export { difficultyFromEvidence } from './difficulty';
export { withCalibration } from './calibration-file';
export { verifyCases, verifyCost, DEFAULT_VERIFY_CONCURRENCY } from './verify/index';
export { estimateCase, estimateRun, DEFAULT_RUN_RATES } from './estimate';
export type { RunRates, CaseEstimate, RunEstimate } from './estimate';
export { verifyCase, needsSandbox } from './verify/case';
export { formatVerifySummary } from './verify/report';
export type { CaseVerifyResult, VerifyOptions, VerifyReport } from './verify/report';
export { MIN_CODE_TESTS } from './verify/code';
export type { CasesErrorCode } from './errors';
