export { CrucibleError, toCrucibleError } from './errors';
export type { CrucibleErrorOptions } from './errors';
export { systemClock, realSleep } from './world';
export { seededRandom } from './random';
export type { Clock, FetchLike, Sleep, RandomSource } from './world';
export { finiteNumber, nonEmptyString, jsonObject } from './fields';
export type { JsonObject } from './fields';
export { EMPTY_USAGE } from './usage';
export { makeRedactor, redactDeep, redactSecrets, secretForms, REDACTED } from './redact';
export { editDistance, closestNames, didYouMean } from './names';
export { neutralizeControls } from './controls';
export type {
  ChatCompleter,
  ChatMessage,
  ChatReply,
  ChatRequest,
  ChatRole,
  FinishReason,
  ReasoningMode,
  TokenUsage,
  ToolCall,
  ToolDefinition,
} from './chat';
export { CATEGORIES } from './results';
export type {
  Category,
  Difficulty,
  GradeOutcome,
  GradeStatus,
  JudgeIdentity,
  JudgeRecord,
  PairwiseSummary,
  ResultRow,
  RowAttempts,
  AttemptFault,
  StreamDamage,
  RowTimings,
  RunManifest,
  SpeedRound,
  SpeedSummary,
} from './results';
