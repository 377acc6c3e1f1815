/**
 * The unstable inside of @crucibleforge/cases (`@crucibleforge/cases/internal`): the graders, text helpers,
 * seeds, templates, haystacks, calibration and run-time estimates the package is built from. For tools and tests
 * that need a part on its own; names and shapes may change without notice. The stable API is the package entry.
 */
export { CategorySchema, DifficultySchema, ReferenceSchema, VerifySpecSchema } from './schema/case';
export type { VerifySpec } from './schema/case';
export type { AgentPart, CodeTest, GraderOf } from './schema/graders';
export type { ArgMatcher, CallMatcher, Count, HaystackSpec, Language, Needles, ParamSpec, Tool, ToolScript, TypeSpec } from './schema/common';
export { caseJsonSchemaText } from './json-schema';
export { loadCases, sortCases, NON_CASE_DIRS } from './loader';
export type { LoadProblem, LoadResult } from './loader';
export { loadProfiles, parseProfile, matchesSelector, closestNames } from './profiles';
export type { ProfileLoad, Selector } from './profiles';
export { canonicalJson, QUESTION_FIELDS } from './revision';
export { drawParams, prng, hash32 } from './prng';
export { cachedDerive, isSeeded, verifySeeds, runDerive, toToolDefinition, DEFAULT_VERIFY_SEEDS } from './materialize';
export type { DeriveOutput } from './materialize';
export { fillTemplate, placeholders } from './template';
export { buildHaystack, estimateTokens } from './haystack/build';
export type { Haystack } from './haystack/build';
export { scriptedToolResults, DEFAULT_MAX_TURNS } from './conversation';
export { judgeInputFor, contextNeeded } from './planned';
export type { CaseIdentity, RowReply } from './harness';
export { gradeCode, runCodeTests, DEFAULT_CODE_TIMEOUT_MS } from './graders/code';
export { gradeNumber, gradeExact, gradeChoice, gradeAssignments } from './graders/answer';
export { gradeContains, gradeRegex, gradeJson, needlesProblem } from './graders/text';
export { gradeToolCalls, assistantTurns } from './graders/tool-calls';
export { argProblem, callProblem, normalizeDate, parseInstant } from './graders/tool-matchers';
export { gradeAgent, concisenessRatio } from './graders/agent';
export { runCheck, runChecks } from './checks/library';
export type { CheckResult } from './checks/library';
export { words, sentences, paragraphs, bulletLines } from './checks/units';
export { extractCode, fencedBlocks } from './text/code';
export { extractJson } from './text/json';
export { containsNeedle } from './text/normalize';
export { parseRational } from './text/numbers';
export { calibrateCase, cachedCalibration, calibratedLimit, DEFAULT_COMPLEXITY_MULTIPLE, DEFAULT_COMPLEXITY_FLOOR_S, WALL_HEADROOM } from './calibration';
export type { Calibration, CalibratedLimit } from './calibration';
export { verifyCost, DEFAULT_VERIFY_CONCURRENCY } from './verify/index';
export { verifyCase, needsSandbox } from './verify/case';
export { MIN_CODE_TESTS } from './verify/code';
export type { BlindCalibration } from './schema/case';
export { difficultyFromEvidence, calibrationProblems } from './difficulty';
export { withCalibration } from './calibration-file';
export { calibrateAttempts, calibrationWriteProblem } from './calibrate-attempts';
export type { AttemptVerdict, CalibrationResult } from './calibrate-attempts';
export { caseListRows, caseListText, filterCases, inSeedOrder } from './listing';
export { slowestCasesLine, verifyResultText } from './verify/report';
export { calibrationText, caseShowText, gradeOutcomeText } from './show-text';
