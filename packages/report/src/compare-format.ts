/** Number formatting shared by the comparison's gate reasons, terminal summary and Markdown block. */
import type { AbilityCell, Comparison, GateMetric, SpeedMetric, SpeedSideStat, UsageComparison, Verdict } from './compare-types';
import { oneLine } from './failures';
import { pValueText } from './paired';

export const VERDICT_TEXT: Record<Verdict, string> = {
  better: 'better',
  worse: 'worse',
  'no-change': 'no detectable change',
  unknown: 'unknown',
};

export const GATE_LABEL: Record<GateMetric, string> = {
  ability: 'ability',
  decode: 'decode T/s',
  prefill: 'prefill T/s',
  ttft: 'TTFT',
  cost: 'cost per case',
  tokens: 'output tokens per case',
};

export const SPEED_LABEL: Record<SpeedMetric, string> = { decode_tps: 'decode', prefill_tps: 'prefill', ttft_s: 'TTFT' };

/** `83.9%` (one decimal), or `—`. */
export function rateText(rate: number | null): string {
  return rate === null ? '—' : `${(rate * 100).toFixed(1)}%`;
}

/** `−16.1 pp`, `+2.0 pp`, `±0.0 pp`. */
export function ppText(delta: number | null): string {
  if (delta === null) return '—';
  const rounded = Math.round(delta * 10) / 10;
  if (rounded === 0) return '±0.0 pp';
  return `${rounded > 0 ? '+' : '−'}${Math.abs(rounded).toFixed(1)} pp`;
}

/** `×0.62`, `×1.00`. */
export function ratioText(ratio: number | null): string {
  return ratio === null ? '—' : `×${ratio.toFixed(2)}`;
}

/** A fraction as a signed percentage: `+12%`, `−3.5%` (one decimal under 10 %). */
export function signedPercent(fraction: number | null): string {
  if (fraction === null) return '—';
  const pct = fraction * 100;
  const text = Math.abs(pct) < 10 ? Math.abs(pct).toFixed(1) : Math.abs(pct).toFixed(0);
  if (Number(text) === 0) return '±0%';
  return `${pct > 0 ? '+' : '−'}${text}%`;
}

/** A slowdown as words: `37% slower`, `60% faster`, `same speed`. */
export function slowdownText(slowdown: number | null): string {
  if (slowdown === null) return '—';
  const text = signedPercent(slowdown).replace(/^[+−]/, '');
  if (text === '±0%') return 'same speed';
  return `${text} ${slowdown > 0 ? 'slower' : 'faster'}`;
}

/** A fraction as an unsigned percentage for thresholds: `10%`, `2.5%`. */
export function percent(fraction: number): string {
  return `${Number((fraction * 100).toFixed(2))}%`;
}

/** The relative half-spread `noise` (a log) as `±3.1%`, or `±?` when unknown. */
export function noiseText(noise: number | null): string {
  if (noise === null) return '±?';
  const pct = (Math.exp(noise) - 1) * 100;
  return `±${pct < 10 ? pct.toFixed(1) : pct.toFixed(0)}%`;
}

/** `2414 T/s`, `0.043 s`, or `—`. */
export function speedValue(metric: SpeedMetric, value: number | null): string {
  if (value === null) return '—';
  return metric === 'ttft_s' ? `${value < 10 ? value.toFixed(3) : value.toFixed(1)} s` : `${value.toFixed(value < 100 ? 1 : 0)} T/s`;
}

/** One side of a speed metric: `2414 T/s ±0.4%`, or `—` when not measured. */
export function speedSideText(metric: SpeedMetric, side: SpeedSideStat): string {
  return side.median === null ? '—' : `${speedValue(metric, side.median)} ${noiseText(side.noise)}`;
}

/** `higher on 6, lower on 0 of 6 cases, sign test p=0.031`. */
export function signTestText(u: UsageComparison): string {
  return `higher on ${u.higher}, lower on ${u.lower} of ${u.cases} cases, sign test ${pValueText(u.p_value ?? 1)}`;
}

/** `12 pass→fail, 0 fail→pass, McNemar p=0.0039` (Holm-adjusted p added for categories when it differs). */
export function flipsText(cell: AbilityCell): string {
  const adjusted = cell.scope !== 'overall' && cell.p_adjusted !== cell.p_value ? ` (Holm ${pValueText(cell.p_adjusted)})` : '';
  return `${cell.regressions} pass→fail, ${cell.improvements} fail→pass, McNemar ${pValueText(cell.p_value)}${adjusted}`;
}

/** `100.0% → 83.9% (−16.1 pp)` on the paired cases. */
export function rateChangeText(cell: AbilityCell): string {
  return `${rateText(cell.baseline_rate)} → ${rateText(cell.candidate_rate)} (${ppText(cell.delta_pp)})`;
}

/** Cost per case: `$0.0123`, `$0.00042`, or `—`. */
export const usdText = (v: number | null): string => (v === null ? '—' : v === 0 ? '$0' : v >= 0.01 ? `$${v.toFixed(4)}` : `$${v.toPrecision(2)}`);

/** Tokens per case, whole: `412`, or `—`. */
export const tokensText = (v: number | null): string => (v === null ? '—' : v.toFixed(0));

/** One line of at most `max` characters (a grader's reason in a list). */
export function shortReason(text: string, max = 160): string {
  const line = oneLine(text);
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/** The metrics that came out better and worse, by name (`ability`, `ability/coding`, `decode`, `cost`, …). */
export function verdictLists(c: Comparison): { worse: string[]; better: string[] } {
  const named: [string, Verdict][] = [
    ['ability', c.ability.overall.verdict],
    ...c.ability.categories.map((cell): [string, Verdict] => [`ability/${cell.scope}`, cell.verdict]),
    ...c.speed.metrics.map((m): [string, Verdict] => [SPEED_LABEL[m.metric], m.verdict]),
    ['cost', c.cost.verdict],
    ['tokens', c.tokens.verdict],
  ];
  return { worse: named.filter(([, v]) => v === 'worse').map(([n]) => n), better: named.filter(([, v]) => v === 'better').map(([n]) => n) };
}

/** `worse: ability, decode · better: TTFT`, or `no detectable change`. */
export function verdictSummary(c: Comparison): string {
  const { worse, better } = verdictLists(c);
  const parts = [worse.length > 0 ? `worse: ${worse.join(', ')}` : null, better.length > 0 ? `better: ${better.join(', ')}` : null].filter((p) => p !== null);
  return parts.length === 0 ? VERDICT_TEXT['no-change'] : parts.join(' · ');
}

/** `ability, decode T/s (max drop 3 pp, max slowdown 10%, α 0.05)`. */
export function gateHeading(c: Comparison): string {
  const g = c.gate;
  if (g.metrics.length === 0) return 'nothing gated';
  const t = g.thresholds;
  const limits: string[] = [];
  if (g.metrics.includes('ability')) limits.push(`max drop ${t.max_drop_pp} pp`);
  if (g.metrics.some((m) => m === 'decode' || m === 'prefill' || m === 'ttft')) limits.push(`max slowdown ${percent(t.max_slowdown)}`);
  if (g.metrics.includes('cost')) limits.push(`max cost increase ${percent(t.max_cost_increase)}`);
  if (g.metrics.includes('tokens')) limits.push(`max token increase ${percent(t.max_token_increase)}`);
  limits.push(`α ${g.alpha}`);
  return `${g.metrics.map((m) => GATE_LABEL[m]).join(', ')} (${limits.join(', ')})`;
}
