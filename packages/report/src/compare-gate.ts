import { flipsText, noiseText, percent, ppText, ratioText, signedPercent, signTestText, slowdownText, VERDICT_TEXT } from './compare-format';
import type {
  AbilityComparison,
  CompareThresholds,
  GateCheck,
  GateMetric,
  GateResult,
  SpeedComparison,
  SpeedMetric,
  UsageComparison,
} from './compare-types';
import { ReportError } from './errors';
import { commaNames } from './output';

export const GATE_METRICS: readonly GateMetric[] = ['ability', 'decode', 'prefill', 'ttft', 'cost', 'tokens'];

/** What `compare` gates on without `--gate`: ability and the three speed metrics. */
export const DEFAULT_GATE: readonly GateMetric[] = ['ability', 'decode', 'prefill', 'ttft'];

export const DEFAULT_THRESHOLDS: Readonly<CompareThresholds> = Object.freeze({
  max_drop_pp: 0,
  max_slowdown: 0,
  max_cost_increase: 0,
  max_token_increase: 0,
});

const ALIASES: Record<string, readonly GateMetric[]> = { speed: ['decode', 'prefill', 'ttft'], all: GATE_METRICS };

const SPEED_OF: Partial<Record<GateMetric, SpeedMetric>> = { decode: 'decode_tps', prefill: 'prefill_tps', ttft: 'ttft_s' };

/**
 * Parses `--gate ability,speed` (case-insensitive; `speed` = decode, prefill, ttft; `all`; `none` = gate on
 * nothing). Unknown names throw REPORT_UNKNOWN_GATE; an empty value means the default gate.
 */
export function parseGate(value: string): GateMetric[] {
  const names = commaNames(value);
  if (names.length === 0) return [...DEFAULT_GATE];
  if (names.length === 1 && names[0] === 'none') return [];
  const out: GateMetric[] = [];
  for (const name of names) {
    const metrics = ALIASES[name] ?? ((GATE_METRICS as readonly string[]).includes(name) ? [name as GateMetric] : null);
    if (metrics === null) {
      throw new ReportError('REPORT_UNKNOWN_GATE', `unknown gate ${JSON.stringify(name)} (expected ${[...GATE_METRICS, 'speed', 'all', 'none'].join(', ')})`, { details: { gate: name } });
    }
    for (const m of metrics) if (!out.includes(m)) out.push(m);
  }
  return out;
}

const POINTS: ReadonlySet<keyof CompareThresholds> = new Set(['max_drop_pp']);

/**
 * Thresholds as typed on a command line or in a query: `max_drop_pp` in percentage points (`3`, `3pp`), the
 * others in percent (`10`, `10%` → 0.1). Absent or empty values are left out (the defaults apply); a value that
 * is not a number ≥ 0 throws REPORT_INVALID_INPUT naming it as `nameOf(key)` (`--max-slowdown`, `query parameter …`).
 */
export function parseThresholds(
  values: Partial<Record<keyof CompareThresholds, string | null | undefined>>,
  nameOf: (key: keyof CompareThresholds) => string = (key) => key,
): Partial<CompareThresholds> {
  const out: Partial<CompareThresholds> = {};
  for (const key of Object.keys(DEFAULT_THRESHOLDS) as (keyof CompareThresholds)[]) {
    const raw = values[key]?.trim();
    if (raw === undefined || raw === '') continue;
    const points = POINTS.has(key);
    const n = Number(raw.replace(points ? /\s*pp$/i : /\s*%$/, ''));
    if (!Number.isFinite(n) || n < 0) {
      const what = points ? 'percentage points ≥ 0 (e.g. 3)' : 'a percentage ≥ 0 (e.g. 10%)';
      throw new ReportError('REPORT_INVALID_INPUT', `${nameOf(key)} must be ${what}, got "${raw.slice(0, 40)}"`, { details: { field: key } });
    }
    out[key] = points ? n : n / 100;
  }
  return out;
}

function abilityCheck(a: AbilityComparison, t: CompareThresholds): GateCheck {
  const worse = [a.overall, ...a.categories].filter((c) => c.verdict === 'worse');
  const beyond = worse.filter((c) => -(c.delta_pp ?? 0) > t.max_drop_pp);
  const describe = (cells: typeof worse) => cells.map((c) => `${c.scope === 'overall' ? 'all' : c.scope} ${ppText(c.delta_pp)} (${flipsText(c)})`).join('; ');
  const allowed = `${t.max_drop_pp} pp allowed`;
  if (beyond.length > 0) return { metric: 'ability', verdict: 'worse', measured: true, failed: true, reason: `worse beyond the ${allowed}: ${describe(beyond)}` };
  if (worse.length > 0) return { metric: 'ability', verdict: 'worse', measured: true, failed: false, reason: `worse but within the ${allowed}: ${describe(worse)}` };
  const o = a.overall;
  return { metric: 'ability', verdict: o.verdict, measured: true, failed: false, reason: `${VERDICT_TEXT[o.verdict]} (${ppText(o.delta_pp)}, ${flipsText(o)})` };
}

function speedCheck(metric: GateMetric, speed: SpeedComparison, t: CompareThresholds): GateCheck {
  const m = speed.metrics.find((x) => x.metric === SPEED_OF[metric]);
  if (m === undefined || m.verdict === 'unknown') {
    return { metric, verdict: 'unknown', measured: false, failed: false, reason: `not checked: ${m?.note ?? 'no speed data'}` };
  }
  const change = `${ratioText(m.ratio)}, ${slowdownText(m.slowdown)}; noise ${noiseText(m.noise)}`;
  const failed = m.verdict === 'worse' && (m.slowdown ?? 0) > t.max_slowdown;
  const within = m.verdict === 'worse' && !failed ? ` but within the ${percent(t.max_slowdown)} allowed` : '';
  const beyond = failed ? ` beyond the ${percent(t.max_slowdown)} allowed` : '';
  return { metric, verdict: m.verdict, measured: true, failed, reason: `${VERDICT_TEXT[m.verdict]}${beyond}${within} (${change})` };
}

function usageCheck(metric: 'cost' | 'tokens', u: UsageComparison, max: number): GateCheck {
  if (u.verdict === 'unknown') return { metric, verdict: 'unknown', measured: false, failed: false, reason: `not checked: ${u.note}` };
  const failed = u.verdict === 'worse' && (u.increase ?? Number.POSITIVE_INFINITY) > max;
  const within = u.verdict === 'worse' && !failed ? ` but within the ${percent(max)} allowed` : '';
  const beyond = failed ? ` beyond the ${percent(max)} allowed` : '';
  const detail = `${signedPercent(u.increase)} per case; ${signTestText(u)}`;
  return { metric, verdict: u.verdict, measured: true, failed, reason: `${VERDICT_TEXT[u.verdict]}${beyond}${within} (${detail})` };
}

/** The gate: for each gated metric, failed = worse beyond noise (the exact test or the speed noise) and beyond its threshold. */
export function evaluateGate(
  parts: { ability: AbilityComparison; speed: SpeedComparison; cost: UsageComparison; tokens: UsageComparison },
  metrics: readonly GateMetric[],
  thresholds: CompareThresholds,
  alpha: number,
): GateResult {
  const checks = metrics.map((metric): GateCheck => {
    if (metric === 'ability') return abilityCheck(parts.ability, thresholds);
    if (metric === 'cost') return usageCheck('cost', parts.cost, thresholds.max_cost_increase);
    if (metric === 'tokens') return usageCheck('tokens', parts.tokens, thresholds.max_token_increase);
    return speedCheck(metric, parts.speed, thresholds);
  });
  return {
    metrics: [...metrics],
    thresholds: { ...thresholds },
    alpha,
    checks,
    failed: checks.some((c) => c.failed),
    unmeasured: checks.filter((c) => !c.measured).map((c) => c.metric),
  };
}
