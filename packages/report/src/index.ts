export { buildReport } from './build';
export { renderMarkdown, renderSummaryTable } from './render-markdown';
export { renderHtml } from './render-html';
export { renderSpeedReport, formatSpeedSummary } from './speed-text';
export { renderPairwiseMarkdown } from './render-pairwise';
export { benchResults, benchScores, benchParts } from './bench';
export type { BenchResults, BenchScores, BenchPart } from './bench';
export { renderJson, renderReportFiles, parseReportFormats, REPORT_FORMATS } from './output';
export type { ReportFile, ReportFormat } from './output';
export { mcnemarExact } from './stats';
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
