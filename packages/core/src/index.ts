export { CrucibleError, toCrucibleError, tableError, isTableError, CORE_ERRORS, ERROR_KINDS, EXIT_CODES, exitCodeOf } from './errors';
export type { CrucibleErrorOptions, CoreErrorCode, ErrorKind, ErrorSpec, ErrorTable } from './errors';
export { systemClock, realSleep } from './world';
export { seededRandom } from './random';
export type { Clock, FetchLike, Sleep, RandomSource } from './world';
export { finiteNumber, nonEmptyString, jsonObject } from './fields';
export type { JsonObject } from './fields';
export { EMPTY_USAGE } from './usage';
export { makeRedactor, redactDeep, redactSecrets, secretForms, REDACTED } from './redact';
export { redactingIO } from './redacting-io';
export { userDir } from './user-dirs';
export { sameModel, servedModelMatches } from './model-id';
export type { ModelMatchMode } from './model-id';
export { stripThinking, THINK_OPEN_TAGS, THINK_CLOSE_TAGS } from './think';
export { balancedJsonSpans } from './json-scan';
export type { JsonSpan } from './json-scan';
export { median, percentile, percentileSorted, wilsonInterval, Z_95 } from './stats';
export { rowKey, latestAttempts, isLaterAttempt } from './rows';
export type { RowKey } from './rows';
export { SseParser, readSse } from './sse';
export type { SseEvent, SseSink } from './sse';
export { editDistance, closestNames, didYouMean } from './names';
export { neutralizeControls } from './controls';
export { PREFLIGHT_PROMPT } from './preflight';
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
export { useColor, terminalWidth, jsonMode, redrawnLine } from './terminal';
export type { TextStream } from './terminal';
