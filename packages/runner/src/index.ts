// Errors
export { RunnerError, isRunnerError, RUNNER_ERRORS } from './errors';
export type { RunnerErrorCode, ConfigIssue } from './errors';

// models.yaml
export { configSchema } from './config-schema';
export type { RunnerConfigData } from './config-schema';
export { parseConfig, loadConfig, resolveConfigPath, configuredSecrets, endpointConfig } from './config';
export type { RunnerConfig } from './config';
export { exampleConfig } from './config-example';
export { importOpenClaw } from './openclaw';
export { probeProvider, modelsView } from './providers';
export type { ProviderStatus } from './providers';

// Runs
export { planRun } from './plan';
export { createRun, defaultDriver, preflightModel } from './api';
export type { RunHandle } from './engine';
export { summarizeRun } from './engine';
export { EventChannel } from './events';
export type { RunEvent, RunProgress, RunSummary } from './events';
export { eventText, summaryLines, estimateLines, regradeLines, formatDuration } from './events-text';
// the shapes of setupStatus and modelsView: ReturnType<typeof …>
export { setupStatus, setupLines, modelsLines } from './status-text';
export type { CostEstimate } from './cost';
export type { CaseDriver } from './driver';
export type { RunWorld } from './world';
export { judgeRun } from './judge-run';
export type { JudgeSummary, JudgeEvent } from './judge-run';
export { recoverRun } from './recover';
export { regradeRun } from './regrade';
export { pairwiseRun } from './pairwise';
export { benchRun } from './bench-run';
export { checkEndpointSetup } from './setup-check';
export type { PairwiseResult } from './pairwise';

// Stored runs
export { listRuns, loadRun, latestRunId } from './storage';
export type { LoadedRun } from './storage';
export type { RunRow } from './storage-types';
export { readRunSpeed, writeRunSpeed, SPEED_FILE } from './speed-store';
export { buildBoard, writeBoard, writePairwiseFile } from './board';
export { loadRunSide } from './run-side';
