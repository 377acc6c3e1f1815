/** bench-llm's terminal text: the header, the speed section, dotted PASS/FAIL lines and the scores (colour is injected). */
import { neutralizeControls, type GradeStatus, type ResultRow } from '@crucibleforge/core';
import { formatBytes, formatParams, type FoundGguf, type SpeedReport } from '@crucibleforge/speed';
import { benchParts, benchScores } from './bench';
import { alignTable } from './speed-text';

/** How text is coloured (the CLI passes ANSI colours on a terminal, plain text elsewhere). */
export interface Paint {
  pass(text: string): string;
  fail(text: string): string;
  warn(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

const fmt = (value: number | null | undefined, digits: number, unit = '') =>
  value === null || value === undefined || !Number.isFinite(value) ? '—' : `${value.toFixed(digits)}${unit}`;

/** Pads cells to aligned columns (all left-aligned, two spaces apart), each line indented. */
export function columns(rows: string[][], indent = ''): string[] {
  return alignTable(rows, Number.POSITIVE_INFINITY).map((line) => `${indent}${line}`.trimEnd());
}

export function benchHeader(model: string, size: number | null, quant: string | null): string[] {
  return ['', `  bench-llm — Benchmarking: ${model}`, ...columns([['GGUF Size:', formatBytes(size), 'Quant:', quant ?? 'unknown']], '  '), ''];
}

/** The speed section: per prompt the mean decode T/s and TTFT (and TTFT of the visible answer for reasoning models). */
export function benchSpeedSection(report: SpeedReport, paint: Paint): string[] {
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
    ...report.plausibility.reasons.map((r) => paint.dim(`     ${neutralizeControls(r)}`)),
    ...report.warnings.map((w) => paint.warn(`     warning: ${neutralizeControls(w)}`)),
    '',
  ];
}

function verdict(status: GradeStatus, paint: Paint): string {
  if (status === 'pass') return paint.pass('PASS');
  if (status === 'fail') return paint.fail('FAIL');
  if (status === 'skipped') return paint.warn('SKIP');
  return paint.warn(status.toUpperCase());
}

interface Line {
  name: string;
  status: GradeStatus;
  reason: string;
}

/** What a test line shows of a runner row. */
export type BenchRow = Pick<ResultRow, 'case_id' | 'title' | 'category' | 'grade'>;

/** The width the dots fill to, for a list of names. */
export function benchDotWidth(names: readonly string[]): number {
  return Math.max(0, ...names.map((n) => n.length)) + 4;
}

/** `Name....... PASS`, and the reason below it when it did not pass (a reason quotes the model: shown, never obeyed). */
function dotted(items: readonly Line[], width: number, paint: Paint): string[] {
  return items.flatMap((i) => [
    `    ${i.name}${'.'.repeat(Math.max(3, width - i.name.length))} ${verdict(i.status, paint)}`,
    ...(i.status === 'pass' ? [] : [paint.dim(`      ↳ ${neutralizeControls(i.reason)}`)]),
  ]);
}

/** The lines of one finished test: one for an ability test, one per part for an agent test. */
export function benchTestLines(t: BenchRow, width: number, paint: Paint): string[] {
  const parts = benchParts(t);
  const items: Line[] = parts
    ? parts.map((p) => ({ name: p.name, status: p.pass ? 'pass' : 'fail', reason: p.reason }))
    : [{ name: t.title ?? t.case_id, status: t.grade.status, reason: t.grade.reason }];
  return dotted(items, width, paint);
}

/** The heading of a section: the ability tests or the agent-fitness tests. */
export function benchSectionTitle(agent: boolean): string {
  return agent ? '🤖 AGENT FITNESS TESTS' : '🧠 ABILITY TESTS';
}

/** `    Ability Score: 4/5` or `    Agent Fitness Score: 2/3` for the rows of one section. */
export function benchScoreLine(rows: readonly BenchRow[], agent: boolean): string {
  const s = benchScores(rows);
  return agent ? `    Agent Fitness Score: ${s.agent}/${s.agentTotal}` : `    Ability Score: ${s.ability}/${s.abilityTotal}`;
}

/** A test of the suite as planned: what the sections need to align names and tell ability from agent tests. */
export interface BenchTest {
  id: string;
  title?: string | undefined;
  category: string;
}

/**
 * The ability and agent-fitness sections of a bench-llm run as lines, fed test by test: the heading when a
 * section begins, the dotted line(s) of each finished test, the section's score when it ends.
 */
export class BenchSections<Row extends BenchRow = BenchRow> {
  readonly rows: Row[] = [];
  #section: 'ability' | 'agent' | null = null;

  constructor(
    private readonly tests: readonly BenchTest[],
    private readonly paint: Paint,
  ) {}

  /** A test starts: the heading of its section when the section changes (the score of the last one first). */
  start(caseId: string): string[] {
    const section = this.tests.find((c) => c.id === caseId)?.category === 'agent' ? 'agent' : 'ability';
    if (this.#section === section) return [];
    const closing = this.close();
    this.#section = section;
    return [...closing, `  ${this.paint.bold(benchSectionTitle(section === 'agent'))}`];
  }

  /** A test ended: its line, or a line per part, dotted to the width of the section's names. */
  end(row: Row): string[] {
    this.rows.push(row);
    const agent = row.category === 'agent';
    const names = this.tests.filter((c) => (c.category === 'agent') === agent).map((c) => c.title ?? c.id);
    const parts = benchParts(row)?.map((p) => p.name) ?? [];
    return benchTestLines(row, benchDotWidth([...names, ...parts]), this.paint);
  }

  /** The score line of the open section (none when no section is open). */
  close(): string[] {
    if (this.#section === null) return [];
    const agent = this.#section === 'agent';
    this.#section = null;
    return [benchScoreLine(this.rows.filter((r) => (r.category === 'agent') === agent), agent), ''];
  }
}

/** What an endpoint says about a model it serves (the streaming client's ModelInfo has these fields). */
export interface ListedModel {
  id: string;
  state: string | null;
  size_bytes: number | null;
  quantization: string | null;
  parameter_count: number | null;
  parameter_size: string | null;
  arch: string | null;
  expert_count: number | null;
  expert_used_count: number | null;
  max_context: number | null;
}

/**
 * `bench-llm --list`: one line per served model, the facts of its GGUF found on disk (`files`, by id)
 * winning over the endpoint's, then the table.
 */
export function modelListText(baseUrl: string, sources: readonly string[], models: readonly ListedModel[], files: ReadonlyMap<string, FoundGguf>): string {
  const rows = [['MODEL', 'STATE', 'SIZE', 'QUANT', 'PARAMS', 'ARCH', 'EXPERTS', 'CONTEXT', 'GGUF']];
  for (const m of models) {
    const g = files.get(m.id)?.info ?? null;
    const size = g?.file_size_bytes ?? m.size_bytes;
    const params = g?.parameter_count ?? m.parameter_count;
    const experts = g?.expert_count ?? m.expert_count;
    const context = m.max_context ?? g?.context_length ?? null;
    rows.push([
      m.id,
      m.state ?? '—',
      size === null ? '—' : formatBytes(size),
      g?.quantization ?? m.quantization ?? '—',
      params ? formatParams(params) : (m.parameter_size ?? '—'),
      g?.architecture ?? m.arch ?? '—',
      experts ? `${g?.expert_used_count ?? m.expert_used_count ?? '?'}/${experts}` : '—',
      context === null ? '—' : String(context),
      files.get(m.id)?.location.path ?? '—',
    ]);
  }
  const found = files.size > 0 ? `; ${files.size} GGUF file${files.size === 1 ? '' : 's'} found on disk` : '';
  return `${models.length} model${models.length === 1 ? '' : 's'} at ${baseUrl} (metadata from ${sources.join(', ')}${found})\n${columns(rows, '  ').join('\n')}\n`;
}
