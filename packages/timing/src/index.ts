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
export { timingError, isTimingError, retryAfterSeconds, TIMING_ERROR_CODES, FATAL_TIMING_CODES } from './errors';
export type { TimingError, TimingErrorCode, TimingErrorDetails } from './errors';
export { runSpeedBenchmark } from './benchmark';
export type { ConcurrencyPoint, DepthPoint, SpeedBenchmarkOptions, SpeedProgress, SpeedReport, SpeedTestResult } from './benchmark';
export { MEDIAN_METRICS, STAT_METRICS } from './records';
export type { MedianMetrics, RunFailed, RunOk, RunRecord } from './records';
export { renderSpeedReport, alignTable } from './format';
export { FORMULAS, IN_PROCESS_FORMULAS } from './formulas';
export type { Formulas } from './formulas';
export { SPEED_PROMPTS, makeNonce, withNonce, depthPrompt, parseCount } from './prompts';
export type { SpeedPrompt, SpeedPromptKey, SpeedPromptName } from './prompts';
export { listModelMetadata, fetchModelIds, probeEndpoint } from './metadata';
export type { EndpointProbe, ModelInfo, ModelListing, ModelMetadata, MetadataOptions } from './metadata';
export { readGgufInfo, kvBytesPerPosition, KV_CACHE_BYTES_PER_ELEMENT } from './gguf';
export type { GgufInfo } from './gguf';
export { assessPlausibility, findGpu, bytesPerParam, parseParamCounts, GPU_BANDWIDTH, ACHIEVABLE_SHARE } from './plausibility';
export type { Confidence, GpuSpec, Plausibility, PlausibilityInput } from './plausibility';
export { defaultModelRoots, discoverGguf, findGguf, findLmStudioGguf, findOllamaGguf, llamaCppModelPath, ollamaManifestParts } from './discover';
export type { DiscoverOptions, GgufLocation, ModelRoots } from './discover';
export { lastLevelCacheBytes, measureHostBandwidth } from './bandwidth';
export type { BandwidthProbeOptions, HostBandwidth } from './bandwidth';
export { releaseModel } from './unload';
export type { ReleaseResult } from './unload';
export { summarize, percentile, median } from './stats';
export type { MetricStats } from './stats';
export { sameModel } from './model-id';
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
