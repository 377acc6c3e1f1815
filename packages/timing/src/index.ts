export { streamChat } from './stream';
export { createTimedCompleter } from './completer';
export type { TimedCompleter, TimedCompleterOptions } from './completer';
export { reasoningSwitch, mergeBody } from './reasoning';
export { buildRequestBody } from './request';
export { timingError, isTimingError, retryAfterSeconds, TIMING_ERROR_CODES, FATAL_TIMING_CODES } from './errors';
export type { TimingError, TimingErrorCode, TimingErrorDetails } from './errors';
export { listModelMetadata, fetchModelIds } from './metadata';
export type { ModelInfo, ModelMetadata, MetadataOptions } from './metadata';
export { summarize, percentile, median } from './stats';
export type { MetricStats } from './stats';
export { sameModel } from './model-id';
export { DEFAULT_TIMEOUTS, PROVIDER_KINDS } from './types';
export type {
  GapStats,
  PartialTimings,
  PrefillSource,
  ProviderKind,
  RequestTimings,
  ServerComparison,
  ServerTimings,
  StreamChatOptions,
  TimedCompletion,
  TimedStream,
  TimingEvent,
  TimingTimeouts,
  TokenSource,
} from './types';
