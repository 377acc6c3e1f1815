import { CrucibleError, type FinishReason } from '@crucibleforge/core';
import { summarize, type MetricStats } from './stats';
import type { PartialTimings, RequestTimings, TimedCompletion } from '@crucibleforge/timing';

/** One measured request as the speed report keeps it: the per-request fields, not the text. */
export type RunRecord = RunOk | RunFailed;

export interface RunOk extends RequestTimings {
  index: number;
  ok: true;
  warmup: boolean;
  served_model: string | null;
  wrong_model: boolean;
  finish_reason: FinishReason;
  content_chars: number;
  reasoning_chars: number;
  tool_calls: number;
  warnings: string[];
}

export interface RunFailed {
  index: number;
  ok: false;
  warmup: boolean;
  error: { code: string; message: string; retryable: boolean };
  partial: PartialTimings | null;
}

export const MEDIAN_METRICS = ['ttft_s', 'ttft_reasoning_s', 'ttft_content_s', 'decode_tps', 'prefill_tps', 'e2e_s'] as const;
export type MedianMetric = (typeof MEDIAN_METRICS)[number];
/** Medians of the contract; a metric that does not apply (no run measured it) is null. */
export type MedianMetrics = Record<MedianMetric, number | null>;

/** Metrics summarised per test (the medians plus TTFB and the p90 event gap). */
export const STAT_METRICS = [...MEDIAN_METRICS, 'ttfb_s', 'gap_p90_s', 'completion_tokens'] as const;
export type StatMetric = (typeof STAT_METRICS)[number];

export function okRecord(index: number, warmup: boolean, result: TimedCompletion): RunOk {
  const { reply, requested_model: _requested, warnings, ...timings } = result;
  return {
    index,
    ok: true,
    warmup,
    ...timings,
    content_chars: reply.content.length,
    reasoning_chars: reply.reasoning.length,
    tool_calls: reply.tool_calls.length,
    warnings,
  };
}

export function failedRecord(index: number, warmup: boolean, error: unknown): RunFailed {
  const typed = CrucibleError.isInstance(error) ? error : null;
  const partial = typed?.details.partial as PartialTimings | undefined;
  return {
    index,
    ok: false,
    warmup,
    error: {
      code: typed?.code ?? 'UNKNOWN',
      message: error instanceof Error ? error.message : String(error),
      retryable: typed?.retryable ?? false,
    },
    partial: partial ?? null,
  };
}

function metricOf(run: RunOk, metric: StatMetric): number | null {
  if (metric === 'gap_p90_s') return run.gaps.p90_s;
  return run[metric];
}

export function okRuns(runs: readonly RunRecord[]): RunOk[] {
  return runs.filter((r): r is RunOk => r.ok);
}

export function statsOf(runs: readonly RunRecord[]): Record<StatMetric, MetricStats> {
  const ok = okRuns(runs);
  const out = {} as Record<StatMetric, MetricStats>;
  for (const metric of STAT_METRICS) out[metric] = summarize(ok.map((r) => metricOf(r, metric)));
  return out;
}

export function mediansOf(runs: readonly RunRecord[]): MedianMetrics {
  const stats = statsOf(runs);
  const out = {} as MedianMetrics;
  for (const metric of MEDIAN_METRICS) out[metric] = stats[metric].median;
  return out;
}
