export { streamChat } from './stream';
export { createTimedCompleter } from './completer';
export type { TimedCompleter, TimedCompleterOptions } from './completer';
export { reasoningSwitch, mergeBody } from './reasoning';
export { buildRequestBody } from './request';
export { timingError, isTimingError, retryAfterSeconds, TIMING_ERROR_CODES, FATAL_TIMING_CODES } from './errors';
export type { TimingError, TimingErrorCode, TimingErrorDetails } from './errors';
export { runSpeedBenchmark } from './benchmark';
export type { ConcurrencyPoint, DepthPoint, SpeedBenchmarkOptions, SpeedProgress, SpeedReport, SpeedTestResult } from './benchmark';
export { MEDIAN_METRICS, STAT_METRICS } from './records';
export type { MedianMetrics, RunFailed, RunOk, RunRecord } from './records';
export { renderSpeedReport, alignTable } from './format';
export { FORMULAS } from './formulas';
export { SPEED_PROMPTS, makeNonce, withNonce, depthPrompt, parseCount } from './prompts';
export type { SpeedPrompt, SpeedPromptKey, SpeedPromptName } from './prompts';
export { listModelMetadata, fetchModelIds, probeEndpoint } from './metadata';
export type { EndpointProbe, ModelInfo, ModelListing, ModelMetadata, MetadataOptions } from './metadata';
export { readGgufInfo } from './gguf';
export type { GgufInfo } from './gguf';
export { assessPlausibility, findGpu, bytesPerParam, parseParamCounts, GPU_BANDWIDTH, ACHIEVABLE_SHARE } from './plausibility';
export type { Confidence, GpuSpec, Plausibility, PlausibilityInput } from './plausibility';
export { releaseModel } from './unload';
export type { ReleaseResult } from './unload';
export { summarize } from './stats';
export type { MetricStats } from './stats';
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
  TimedStream,
  TimingEvent,
  TimingTimeouts,
  TokenSource,
} from './types';
