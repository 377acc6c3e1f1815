/** bench-llm's terminal output: sections, dotted PASS/FAIL lines, scores; colour only on a terminal. */
import type { SpeedReport } from '@crucibleforge/timing';
import type { TestResult } from './bench-llm-ability';
import { inert, useColor } from './output';

export interface Paint {
  pass(text: string): string;
  fail(text: string): string;
  warn(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const plain = (text: string) => text;

/** ANSI colour by the CLI's one rule ({@link useColor}: FORCE_COLOR, NO_COLOR, a terminal); plain text otherwise. */
export function paintFor(isTTY: boolean | undefined, env: Record<string, string | undefined>): Paint {
  if (!useColor(isTTY, env)) return { pass: plain, fail: plain, warn: plain, dim: plain, bold: plain };
  return { pass: wrap(32, 39), fail: wrap(31, 39), warn: wrap(33, 39), dim: wrap(2, 22), bold: wrap(1, 22) };
}

const fmt = (value: number | null | undefined, digits: number, unit = '') =>
  value === null || value === undefined || !Number.isFinite(value) ? '—' : `${value.toFixed(digits)}${unit}`;

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return 'unknown';
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(0)} MB` : `${(bytes / 1e3).toFixed(0)} KB`;
}

/** Pads cells to aligned columns (all left-aligned, two spaces apart). */
export function columns(rows: string[][], indent = ''): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => `${indent}${row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')}`.trimEnd());
}

export function header(model: string, size: number | null, quant: string | null): string[] {
  return ['', `  bench-llm — Benchmarking: ${model}`, ...columns([['GGUF Size:', formatBytes(size), 'Quant:', quant ?? 'unknown']], '  '), ''];
}

/** The speed section: per prompt the mean decode T/s and TTFT (and TTFT of the visible answer for reasoning models). */
export function speedSection(report: SpeedReport, paint: Paint): string[] {
  const reasoning = report.tests.some((t) => t.median.ttft_reasoning_s !== null);
  const rows = report.tests.map((t) => {
    const row = [t.name, `TPS: mean=${fmt(t.stats.decode_tps.mean, 1)}`, `TTFT: mean=${fmt(t.stats.ttft_s.mean, 3, 's')}`];
    if (reasoning) row.push(`TTFT content: mean=${fmt(t.stats.ttft_content_s.mean, 3, 's')}`);
    const failed = t.runs.filter((r) => !r.ok).length;
    if (failed > 0) row.push(paint.fail(`${failed} failed`));
    return row;
  });
  const confidence = report.plausibility.confidence;
  const shown = confidence === 'HIGH' ? paint.pass(confidence) : confidence === 'LOW' || confidence === 'SUSPICIOUS' ? paint.fail(confidence) : paint.warn(confidence);
  return [
    `  ${paint.bold('⚡ SPEED BENCHMARKS')}`,
    ...columns(rows, '    '),
    `  🔍 Validating speed plausibility...  Confidence: ${shown}`,
    ...report.plausibility.reasons.map((r) => paint.dim(`     ${inert(r)}`)),
    ...report.warnings.map((w) => paint.warn(`     warning: ${w}`)),
    '',
  ];
}

function verdict(status: TestResult['status'], paint: Paint): string {
  if (status === 'pass') return paint.pass('PASS');
  if (status === 'fail') return paint.fail('FAIL');
  if (status === 'skipped') return paint.warn('SKIP');
  return paint.warn(status.toUpperCase());
}

interface Line {
  name: string;
  status: TestResult['status'];
  reason: string;
}

/** The width the dots fill to, for a list of names. */
export function dotWidth(names: readonly string[]): number {
  return Math.max(0, ...names.map((n) => n.length)) + 4;
}

/** `Name....... PASS`, and the reason below it when it did not pass. */
function dotted(items: readonly Line[], width: number, paint: Paint): string[] {
  return items.flatMap((i) => [
    `    ${i.name}${'.'.repeat(Math.max(3, width - i.name.length))} ${verdict(i.status, paint)}`,
    ...(i.status === 'pass' ? [] : [paint.dim(`      ↳ ${inert(i.reason)}`)]),
  ]);
}

/** The lines of one finished test: one for an ability test, one per part for an agent test. */
export function testLines(t: TestResult, width: number, paint: Paint): string[] {
  const items: Line[] = t.parts
    ? t.parts.map((p) => ({ name: p.name, status: p.pass ? 'pass' : 'fail', reason: p.reason }))
    : [{ name: t.title, status: t.status, reason: t.reason }];
  return dotted(items, width, paint);
}

export interface Scores {
  ability: number;
  abilityTotal: number;
  agent: number;
  agentTotal: number;
}

/** Ability: one point per passed test. Agent fitness: one point per passed part of each agent test. */
export function scores(ability: readonly TestResult[], agent: readonly TestResult[]): Scores {
  const parts = agent.flatMap((t) => t.parts ?? [{ name: t.title, pass: t.status === 'pass', reason: t.reason }]);
  return {
    ability: ability.filter((t) => t.status === 'pass').length,
    abilityTotal: ability.length,
    agent: parts.filter((p) => p.pass).length,
    agentTotal: parts.length,
  };
}

export const ABILITY_TITLE = '🧠 ABILITY TESTS';
export const AGENT_TITLE = '🤖 AGENT FITNESS TESTS';

export function abilityScoreLine(tests: readonly TestResult[]): string {
  const s = scores(tests, []);
  return `    Ability Score: ${s.ability}/${s.abilityTotal}`;
}

export function agentScoreLine(tests: readonly TestResult[]): string {
  const s = scores([], tests);
  return `    Agent Fitness Score: ${s.agent}/${s.agentTotal}`;
}
