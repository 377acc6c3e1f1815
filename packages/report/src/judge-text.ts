/** The line `judge` (and `all`) prints after judging a run's prose answers. */
export interface JudgeSummaryCounts {
  judged: number;
  correct: number;
  incorrect: number;
  judge_errors: number;
  pending: number;
  self_judge_skipped: number;
}

/** `judged N: …; P rows still pending`, or `nothing to judge in run ID` (with the rows that keep a judge error). */
export function judgeSummaryLine(summary: JudgeSummaryCounts, runId: string): string {
  if (summary.judged === 0 && summary.self_judge_skipped === 0) {
    return `nothing to judge in run ${runId}${summary.pending > 0 ? ` (${summary.pending} rows keep a judge error; --retry-errors retries them)` : ''}\n`;
  }
  return `judged ${summary.judged}: ${summary.correct} correct, ${summary.incorrect} incorrect, ${summary.judge_errors} judge errors; ${summary.pending} rows still pending\n`;
}
