import { neutralizeControls } from '@crucibleforge/core';
import { formatGigabytes, type MetricStats, type RunFailed, type SpeedEvent, type SpeedReport } from '@crucibleforge/speed';

type StatMetric = keyof SpeedReport['tests'][number]['stats'];

const ROWS: [StatMetric, string, number][] = [
  ['ttft_s', 'TTFT (s)', 3],
  ['ttft_reasoning_s', 'TTFT reasoning (s)', 3],
  ['ttft_content_s', 'TTFT content (s)', 3],
  ['decode_tps', 'decode (T/s)', 1],
  ['prefill_tps', 'prefill (T/s)', 1],
  ['e2e_s', 'E2E (s)', 3],
];

function fmt(value: number | null | undefined, digits: number): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(digits);
}

/** Pads columns to a common width: the first `left` columns left-aligned, the rest right-aligned. */
export function alignTable(rows: string[][], left = 2): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) =>
    row
      .map((cell, i) => (i < left ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}

function statCells(stats: MetricStats, digits: number): string[] {
  return [String(stats.n), fmt(stats.mean, digits), fmt(stats.median, digits), fmt(stats.p90, digits), fmt(stats.min, digits), fmt(stats.max, digits)];
}

/** The human-readable report of a speed run: aligned tables, plausibility, formulas. */
export function renderSpeedReport(report: SpeedReport): string {
  const lines: string[] = [];
  const s = report.settings;
  lines.push(`speed of ${report.model} at ${report.base_url} — ${s.runs} runs after ${s.warmup} warm-up, max_tokens ${s.max_tokens}`);
  const info = report.endpoint.model;
  if (info) {
    const bits = [info.arch, info.quantization, info.parameter_size, info.max_context ? `ctx ${info.max_context}` : null, info.state].filter(Boolean);
    if (bits.length > 0) lines.push(`model: ${bits.join(', ')}`);
  }
  if (report.gguf) {
    const g = report.gguf;
    lines.push(`gguf: ${g.quantization ?? '?'}, ${formatGigabytes(g.file_size_bytes)}, ${formatGigabytes(g.active_bytes_per_token)} read per token${g.expert_count ? `, ${g.expert_used_count}/${g.expert_count} experts` : ''}`);
  }
  lines.push('');
  const rows: string[][] = [['test', 'metric', 'n', 'mean', 'median', 'p90', 'min', 'max']];
  for (const test of report.tests) {
    ROWS.forEach(([metric, label, digits], i) => rows.push([i === 0 ? test.name : '', label, ...statCells(test.stats[metric], digits)]));
    const failed = test.runs.filter((r) => !r.ok);
    if (failed.length > 0) rows.push(['', `failed: ${failed.length}`, '', '', '', '', '', '']);
  }
  lines.push(...alignTable(rows));
  if (report.depth_sweep) {
    lines.push('', 'depth sweep');
    const depth: string[][] = [['depth', 'prompt tokens', 'TTFT s', 'prefill T/s', 'decode T/s']];
    for (const d of report.depth_sweep) {
      depth.push([String(d.depth_tokens), fmt(d.prompt_tokens, 0), fmt(d.median.ttft_s, 3), fmt(d.median.prefill_tps, 1), fmt(d.median.decode_tps, 1)]);
    }
    lines.push(...alignTable(depth, 1));
  }
  if (report.concurrency_sweep) {
    lines.push('', 'concurrency sweep');
    const conc: string[][] = [['streams', 'requests', 'failed', 'TTFT s (median)', 'per-stream T/s (median)', 'aggregate T/s']];
    for (const c of report.concurrency_sweep) {
      conc.push([String(c.concurrency), String(c.requests), String(c.failures), fmt(c.ttft_s.median, 3), fmt(c.per_stream_decode_tps.median, 1), fmt(c.aggregate_tps, 1)]);
    }
    lines.push(...alignTable(conc, 1));
  }
  lines.push('', `plausibility: ${report.plausibility.confidence}`);
  for (const reason of report.plausibility.reasons) lines.push(`  - ${reason}`);
  for (const warning of report.warnings) lines.push(`warning: ${warning}`);
  lines.push('', 'formulas');
  const f = report.formulas;
  lines.push(
    ...alignTable(
      [
        ['  TTFT', f.ttft_s],
        ['  decode', f.decode_tps],
        ['  prefill', f.prefill_tps],
        ['  E2E', f.e2e_s],
        ['  t0', f.t0],
        ...(report.concurrency_sweep ? [['  aggregate', f.aggregate_tps]] : []),
        ['  roofline', f.roofline_tps],
      ],
      2,
    ),
  );
  return `${lines.join('\n')}\n`;
}


/** One measured request of a running benchmark: `  warm-up short_50 #1: TTFT 0.043 s, decode 61.2 T/s, 212 tokens`. */
export function speedEventText(p: SpeedEvent): string {
  const r = p.run;
  const what = `${p.phase === 'warmup' ? 'warm-up ' : ''}${p.label} #${r.index + 1}`;
  if (!r.ok) return `  ${what}: ${r.error.code}: ${r.error.message}`;
  const tps = r.decode_tps === null ? '—' : r.decode_tps.toFixed(1);
  return `  ${what}: TTFT ${r.ttft_s?.toFixed(3) ?? '—'} s, decode ${tps} T/s, ${r.completion_tokens ?? '?'} tokens`;
}

/** What a failed request had measured before it failed: `partial timings: headers 0.012 s, TTFT 0.340 s, …`. */
export function partialTimingsText(partial: NonNullable<RunFailed['partial']>): string {
  const s = (label: string, v: number | null) => (v === null ? null : `${label} ${v.toFixed(3)} s`);
  const parts = [
    s('headers', partial.headers_s),
    s('TTFB', partial.ttfb_s),
    s('TTFT', partial.ttft_s),
    s('last token', partial.last_token_s),
    `${partial.token_events} token events`,
    `${partial.content_chars + partial.reasoning_chars} characters`,
    s('elapsed', partial.elapsed_s),
  ].filter((x): x is string => x !== null);
  return `partial timings: ${parts.join(', ')}`;
}

/** The streaming client's codes for a request cut off part-way (its details carry the partial timings). */
const CUT_OFF_CODES = new Set(['TIMING_CONNECT_TIMEOUT', 'TIMING_FIRST_TOKEN_TIMEOUT', 'TIMING_GAP_TIMEOUT', 'TIMING_TOTAL_TIMEOUT', 'TIMING_STREAM_ERROR']);

/**
 * Why a speed benchmark stopped: `CODE: message` (a rejected key names the variable to fix, `keyVar`), then
 * for a timeout or a broken stream what was measured before it stopped (it tells a slow server from a dead one).
 */
export function speedFailureText(error: { code: string; message: string; details?: unknown }, keyVar: string | undefined): string {
  let message = error.message;
  if (error.code === 'TIMING_AUTH') {
    message = keyVar ? `key rejected, set ${keyVar} to a valid key (${error.message})` : `key rejected: the endpoint needs a key; put it in an environment variable and pass --api-key-env VAR (${error.message})`;
  }
  const partial = CUT_OFF_CODES.has(error.code) ? (error.details as { partial?: RunFailed['partial'] } | undefined)?.partial : undefined;
  return `${error.code}: ${neutralizeControls(message)}\n${partial ? `  ${partialTimingsText(partial)}\n` : ''}`;
}
