import { median, type SpeedRound, type SpeedSummary } from '@crucibleforge/core';
import type { SideName } from './compare-ability';
import type { SpeedComparison, SpeedMetric, SpeedMetricComparison, SpeedSideStat, Verdict } from './compare-types';
import { ReportError } from './errors';

/** The speed metrics compared, in display order; T/s are better higher, TTFT lower. */
export const SPEED_METRICS: readonly { metric: SpeedMetric; higher_is_better: boolean }[] = [
  { metric: 'decode_tps', higher_is_better: true },
  { metric: 'prefill_tps', higher_is_better: true },
  { metric: 'ttft_s', higher_is_better: false },
];

const usable = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0;

/** Throws REPORT_INVALID_INPUT naming the field when a speed summary is not one the comparison can read. */
export function validateSpeed(summary: SpeedSummary, name: SideName): void {
  const where = `${name}.speed`;
  if (typeof summary !== 'object' || summary === null) {
    throw new ReportError('REPORT_INVALID_INPUT', `${where} must be a speed summary object`, { details: { side: name } });
  }
  for (const { metric } of SPEED_METRICS) {
    const v: unknown = summary[metric];
    if (v !== null && v !== undefined && typeof v !== 'number') {
      throw new ReportError('REPORT_INVALID_INPUT', `${where}.${metric} must be a number or null, got ${JSON.stringify(v)}`, { details: { side: name, field: metric } });
    }
  }
  if (summary.rounds === undefined) return;
  if (!Array.isArray(summary.rounds)) {
    throw new ReportError('REPORT_INVALID_INPUT', `${where}.rounds must be a list of rounds`, { details: { side: name, field: 'rounds' } });
  }
  summary.rounds.forEach((round: SpeedRound, i) => {
    if (typeof round !== 'object' || round === null || typeof round.prompt !== 'string') {
      throw new ReportError('REPORT_INVALID_INPUT', `${where}.rounds[${i}].prompt must be a string`, { details: { side: name, field: `rounds[${i}].prompt` } });
    }
    for (const { metric } of SPEED_METRICS) {
      const v: unknown = round[metric];
      if (v !== null && typeof v !== 'number') {
        throw new ReportError('REPORT_INVALID_INPUT', `${where}.rounds[${i}].${metric} must be a number or null, got ${JSON.stringify(v)}`, { details: {
          side: name,
          field: `rounds[${i}].${metric}`,
        } });
      }
    }
  });
}

/** Usable values of one metric, grouped by the prompt that measured them. */
function byPrompt(summary: SpeedSummary, metric: SpeedMetric): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (const round of summary.rounds ?? []) {
    const v = round[metric];
    if (!usable(v)) continue;
    const list = groups.get(round.prompt) ?? [];
    list.push(v);
    groups.set(round.prompt, list);
  }
  return groups;
}

/**
 * The noise of one side: the largest |ln(value / median of its prompt)| over the prompts measured at least
 * twice (a relative half-spread of the repeated rounds), or null when nothing was repeated.
 */
export function roundNoise(groups: ReadonlyMap<string, readonly number[]>): number | null {
  let noise: number | null = null;
  for (const values of groups.values()) {
    if (values.length < 2) continue;
    const mid = median(values)!;
    for (const v of values) noise = Math.max(noise ?? 0, Math.abs(Math.log(v / mid)));
  }
  return noise;
}

function sideStat(summary: SpeedSummary, metric: SpeedMetric, groups: ReadonlyMap<string, readonly number[]>): SpeedSideStat {
  const values = [...groups.values()].flat();
  const own = summary[metric];
  return {
    median: usable(own) ? own : median(values),
    rounds: values.length,
    min: values.length === 0 ? null : Math.min(...values),
    max: values.length === 0 ? null : Math.max(...values),
    noise: roundNoise(groups),
  };
}

/** Geometric mean over the prompts both sides measured of (candidate prompt median / baseline prompt median). */
function promptRatio(base: ReadonlyMap<string, readonly number[]>, cand: ReadonlyMap<string, readonly number[]>): number | null {
  const logs: number[] = [];
  for (const [prompt, values] of base) {
    const other = cand.get(prompt);
    if (other === undefined) continue;
    logs.push(Math.log(median(other)! / median(values)!));
  }
  if (logs.length === 0) return null;
  return Math.exp(logs.reduce((sum, x) => sum + x, 0) / logs.length);
}

/** `either side`, `the baseline` or `the candidate`: where something is missing (at least one is true). */
function sidesText(baseline: boolean, candidate: boolean): string {
  return baseline && candidate ? 'either side' : baseline ? 'the baseline' : 'the candidate';
}

function metricComparison(
  metric: SpeedMetric,
  higher: boolean,
  baseline: SpeedSummary,
  candidate: SpeedSummary,
): SpeedMetricComparison {
  const bGroups = byPrompt(baseline, metric);
  const cGroups = byPrompt(candidate, metric);
  const b = sideStat(baseline, metric, bGroups);
  const c = sideStat(candidate, metric, cGroups);
  const bothRounds = bGroups.size > 0 && cGroups.size > 0;
  const ratio = bothRounds ? promptRatio(bGroups, cGroups) : b.median !== null && c.median !== null ? c.median / b.median : null;
  const noise = b.noise !== null && c.noise !== null ? b.noise + c.noise : null;
  const out: SpeedMetricComparison = {
    metric,
    higher_is_better: higher,
    baseline: b,
    candidate: c,
    ratio,
    slowdown: ratio === null ? null : higher ? 1 - ratio : ratio - 1,
    noise,
    verdict: 'unknown',
    note: '',
  };
  if (b.median === null || c.median === null) {
    out.note = `not measured on ${sidesText(b.median === null, c.median === null)}`;
  } else if (bothRounds && ratio === null) {
    out.note = 'the two speed runs share no prompt';
  } else if (noise === null) {
    out.note = `no repeated rounds on ${sidesText(b.noise === null, c.noise === null)}, so the noise is unknown`;
  } else {
    const change = Math.log(ratio!);
    const verdict: Verdict = Math.abs(change) <= noise ? 'no-change' : change > 0 === higher ? 'better' : 'worse';
    out.verdict = verdict;
  }
  return out;
}

/** Where a side's speed data is missing, for the note. */
export interface SpeedSource {
  summary: SpeedSummary | null | undefined;
  label: string;
}

/**
 * Decode, prefill and TTFT of the two speed runs. A change counts (better or worse) only when |ln ratio|
 * exceeds the sum of both sides' round noise; missing data makes every verdict `unknown`, never a failure.
 */
export function compareSpeed(baseline: SpeedSource, candidate: SpeedSource): SpeedComparison {
  const missing = [baseline, candidate].filter((s) => s.summary === null || s.summary === undefined);
  if (missing.length > 0 || !baseline.summary || !candidate.summary) {
    const note = `no speed data for ${missing.map((s) => s.label).join(' or ')}: ${missing.length === 1 ? 'its run has' : 'their runs have'} no speed summary for the model`;
    return {
      available: false,
      note,
      metrics: SPEED_METRICS.map(({ metric, higher_is_better }) => ({
        metric,
        higher_is_better,
        baseline: { median: null, rounds: 0, min: null, max: null, noise: null },
        candidate: { median: null, rounds: 0, min: null, max: null, noise: null },
        ratio: null,
        slowdown: null,
        noise: null,
        verdict: 'unknown' as const,
        note,
      })),
    };
  }
  validateSpeed(baseline.summary, 'baseline');
  validateSpeed(candidate.summary, 'candidate');
  const metrics = SPEED_METRICS.map(({ metric, higher_is_better }) => metricComparison(metric, higher_is_better, baseline.summary!, candidate.summary!));
  return { available: true, note: null, metrics };
}
