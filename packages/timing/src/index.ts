export { streamChat } from './stream';
// For engines that are not HTTP (the in-process llama.cpp engine): the same measurement from their own token events.
export { computeTimings } from './compute';
export { emptyObserved } from './measure';
export type { Observed } from './measure';
export { EventQueue } from './queue';
export { createTimedCompleter } from './completer';
export type { TimedCompleter, TimedCompleterOptions } from './completer';
export { reasoningSwitch, mergeBody } from './reasoning';
export { buildRequestBody } from './request';
export {
  timingError,
  isTimingError,
  failureClassOf,
  retryAfterSeconds,
  TIMING_ERRORS,
  TIMING_ERROR_CODES,
  FATAL_TIMING_CODES,
} from './errors';
export type { EndpointFailureClass, TimingError, TimingErrorCode, TimingErrorDetailsMap } from './errors';
export { listModelMetadata, fetchModelIds, probeEndpoint, serverRoot } from './metadata';
export type { EndpointProbe, ModelInfo, ModelListing, ModelMetadata, MetadataOptions } from './metadata';
export { releaseModel } from './unload';
export type { ReleaseResult } from './unload';
export { DEFAULT_TIMEOUTS, PROVIDER_KINDS } from './types';
export type {
  EndpointOptions,
  GapStats,
  PartialTimings,
  PrefillSource,
  ProviderKind,
  RequestTimings,
  ServerComparison,
  ServerTimings,
  StreamChatOptions,
  TimedCompletion,
  StreamIntegrity,
  TimedStream,
  TimingEvent,
  TimingTimeouts,
  TokenSource,
} from './types';
