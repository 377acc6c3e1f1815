export { runSpeedBenchmark, speedRequestPlan, RUN_SPEED_SETTINGS } from './benchmark';
export type { ConcurrencyPoint, DepthPoint, SpeedBenchmarkOptions, SpeedEvent, SpeedReport, SpeedSettings, SpeedTestResult } from './benchmark';
export { MEDIAN_METRICS, STAT_METRICS } from './records';
export type { MedianMetrics, RunFailed, RunOk, RunRecord } from './records';
export { FORMULAS } from './formulas';
export { SPEED_PROMPTS, makeNonce, withNonce, depthPrompt, parseCount } from './prompts';
export type { SpeedPrompt, SpeedPromptKey, SpeedPromptName } from './prompts';
export { readGgufInfo } from './gguf';
export type { GgufInfo } from './gguf';
export { assessPlausibility, findGpu, bytesPerParam, parseParamCounts, GPU_BANDWIDTH, ACHIEVABLE_SHARE } from './plausibility';
export type { Confidence, GpuSpec, Plausibility, PlausibilityInput } from './plausibility';
export { summarize } from './stats';
export type { MetricStats } from './stats';
export { SPEED_ERRORS, speedError, isSpeedError } from './errors';
export type { SpeedErrorCode } from './errors';
export { formatGigabytes } from './plausibility';
export { IN_PROCESS_FORMULAS } from './formulas';
export type { Formulas } from './formulas';
export { defaultModelRoots, discoverGguf, findGguf, findLmStudioGguf, findOllamaGguf, llamaCppModelPath, ollamaManifestParts } from './discover';
export type { DiscoverOptions, GgufLocation, ModelRoots } from './discover';
export { lastLevelCacheBytes, measureHostBandwidth } from './bandwidth';
export type { BandwidthProbeOptions, HostBandwidth } from './bandwidth';
export {
  hostBandwidth,
  hostRooflineOptions,
  bandwidthLine,
  isLocalEndpoint,
  discoverServedGguf,
  discoverServedGgufs,
  formatBytes,
  formatParams,
  ggufSummary,
  BANDWIDTH_FILE,
  BANDWIDTH_MAX_AGE_DAYS,
} from './host';
export type { FoundGguf, HostBandwidthOptions, HostBandwidthReading, ServedEndpoint } from './host';
export { resolveHardware } from './hardware';
export type { Hardware, HardwareRequest } from './hardware';
