export { buildReport } from './build';
export { renderMarkdown, renderSummaryTable } from './render-markdown';
export { renderTerminalSummary } from './render-terminal';
export type { TerminalSummaryOptions } from './render-terminal';
export { isEndpointErrorRow, modelStatus, renderModelStatus, statusCell, statusLine } from './status';
export type { ModelStatus, ModelStopInput } from './status';
export { renderHtml } from './render-html';
export { renderSpeedReport, speedEventText, speedFailureText, partialTimingsText } from './speed-text';
export { renderPairwiseMarkdown } from './render-pairwise';
export { judgeSummaryLine } from './judge-text';
export { configSummary, configSummaryText } from './config-text';
export type { ConfigShape } from './config-text';
export type { JudgeSummaryCounts } from './judge-text';
export { benchResults, benchScores, benchParts } from './bench';
export type { BenchResults, BenchScores, BenchPart } from './bench';
export { fileSafe, localDate, paintFor, resultsPath, shortPath } from './bench-files';
export { benchHeader, benchSpeedSection, benchTestLines, BenchSections, columns, modelListText } from './bench-text';
export type { ListedModel } from './bench-text';
export type { Paint, BenchRow, BenchTest } from './bench-text';
export { renderJson, renderReportFiles, parseReportFormats, REPORT_FORMATS } from './output';
export type { ReportFile, ReportFormat } from './output';
export { mcnemarExact, holmAdjust } from './stats';
export { compareRuns, renderComparisonJson } from './compare';
export { parseGate, parseThresholds, GATE_METRICS, DEFAULT_GATE, DEFAULT_THRESHOLDS } from './compare-gate';
export { renderComparisonText } from './render-compare-text';
export { renderComparisonMarkdown } from './render-compare-markdown';
export { COMPARISON_SCHEMA_VERSION } from './compare-types';
export type {
  AbilityCell,
  AbilityComparison,
  CompareInput,
  CompareSide,
  CompareThresholds,
  Comparison,
  Exclusions,
  FlippedCase,
  GateCheck,
  GateMetric,
  GateResult,
  SideInfo,
  SpeedComparison,
  SpeedMetric,
  SpeedMetricComparison,
  SpeedSideStat,
  UsageComparison,
  Verdict,
} from './compare-types';
export { failureReason } from './failures';
export { ReportError } from './errors';
export type { ReportErrorCode } from './errors';
export { REPORT_SCHEMA_VERSION } from './types';
export type {
  BuildReportInput,
  ComparabilityIssue,
  FailureDetail,
  FailureEntry,
  FailureKind,
  ModelSummary,
  PairedComparison,
  PairwiseRatingRow,
  PairwiseReport,
  RateCell,
  ReportData,
  RunInfo,
  SpeedCell,
} from './types';
