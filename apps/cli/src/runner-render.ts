/** Renders runner events for a terminal (a progress line redrawn in place) or a log (plain lines). */
import type { JudgeEvent, RunEvent, RunSummary } from '@crucibleforge/runner';
import type { CliIO } from './io';
import { inert } from './output';
import { formatDuration, formatUsd } from './runner-context';

const STATUS_WORD = { pass: 'PASS', fail: 'FAIL', pending: 'JUDGE', skipped: 'SKIP', error: 'ERROR' } as const;

export function progressText(e: Extract<RunEvent, { type: 'progress' }>): string {
  const parts = [`[${e.done}/${e.total}]`, `${e.passes} passed`];
  if (e.tokens_per_s !== null) parts.push(`${e.tokens_per_s.toFixed(1)} tok/s`);
  if (e.cost_usd > 0) parts.push(formatUsd(e.cost_usd));
  if (e.eta_s !== null && e.done < e.total) parts.push(`ETA ${formatDuration(e.eta_s)}`);
  return parts.join(' · ');
}

/** One line for an event, or null for events that only move the progress line; model text in it is inert. */
export function eventLine(event: RunEvent): string | null {
  const line = rawEventLine(event);
  return line === null ? null : inert(line);
}

function rawEventLine(event: RunEvent): string | null {
  switch (event.type) {
    case 'run-start':
      return `${event.resumed ? 'resuming' : 'starting'} run ${event.run_id}: ${event.models.join(', ')} — ${event.total - event.already_done} of ${event.total} cases to run (results in ${event.dir})`;
    case 'model-start':
      return `${event.model}: ${event.cases} cases`;
    case 'preflight':
      return `${event.model}: preflight ${event.ok ? 'ok' : 'FAILED'} — ${event.message}${event.ok && event.context_length !== null ? `, context ${event.context_length}` : ''}`;
    case 'case-start':
      return null;
    case 'case-end': {
      const r = event.row;
      const secs = r.timings.e2e_s === null ? '' : ` ${r.timings.e2e_s.toFixed(1)}s`;
      const overflow = r.overflow?.happened ? (r.overflow.recovered ? ' [overflow recovered]' : ' [overflow]') : '';
      return `${event.model} ${r.case_id}${r.seed === null ? '' : `#${r.seed}`}: ${STATUS_WORD[r.grade.status]}${secs}${overflow} — ${r.grade.reason}`;
    }
    case 'model-stopped':
      return `${event.model}: STOPPED (${event.reason}) — ${event.message}`;
    case 'model-end':
      return `${event.outcome.model}: ${event.outcome.done}/${event.outcome.total} done, ${event.outcome.passes} passed${event.outcome.cost_usd > 0 ? `, ${formatUsd(event.outcome.cost_usd)}` : ''}`;
    case 'notice':
      return `${event.model ? `${event.model}: ` : ''}${event.message}`;
    case 'progress':
      return null;
    case 'run-end':
      return null;
  }
}

/** Writes a run's events to the CLI's stdout until the run ends. */
export async function renderRun(events: AsyncIterable<RunEvent>, io: CliIO): Promise<void> {
  const tty = io.stdout.isTTY === true;
  let progress = '';
  const clear = () => {
    if (tty && progress) io.stdout.write('\r\x1b[2K');
  };
  for await (const event of events) {
    const line = eventLine(event);
    if (event.type === 'progress') {
      const text = progressText(event);
      if (tty) {
        clear();
        progress = text;
        io.stdout.write(progress);
      }
      continue;
    }
    if (line === null) continue;
    // On a terminal only failures and notable events scroll; passes just move the progress line.
    if (tty && event.type === 'case-end' && event.row.grade.status === 'pass') continue;
    clear();
    io.stdout.write(`${line}\n`);
    if (tty && progress) io.stdout.write(progress);
  }
  clear();
}

export function summaryLines(s: RunSummary): string[] {
  const lines = [
    `run ${s.run_id}: ${s.done}/${s.total} cases done — ${s.passes} passed, ${s.failures} failed, ${s.skipped} skipped, ${s.errors} errors, ${s.pending_judge} waiting for the judge`,
  ];
  if (s.overflows.happened > 0) lines.push(`reasoning overflows: ${s.overflows.happened} (${s.overflows.recovered} recovered)`);
  if (s.cost_usd > 0) lines.push(`cost: ${formatUsd(s.cost_usd)}`);
  for (const m of s.models) {
    const notRun = m.total - m.done;
    const left = notRun > 0 ? `, ${notRun} of ${m.total} not run${m.aborted > 0 ? ` (${m.aborted} aborted in flight)` : ''}` : '';
    lines.push(`  ${m.model}: ${m.passes}/${m.total} passed${left}${m.stopped ? ` — stopped: ${m.stopped.reason} (${m.stopped.message})` : ''}`);
  }
  lines.push(`results: ${s.dir}`);
  if (!s.complete) lines.push(`incomplete: run the same command again (or "crucibleforge run --resume ${s.run_id}") to finish it`);
  return lines.map(inert);
}

/** One line per judge event; the judge's notes are model output, made inert. */
export function judgeEventLine(event: JudgeEvent): string {
  return inert(rawJudgeEventLine(event));
}

function rawJudgeEventLine(event: JudgeEvent): string {
  switch (event.type) {
    case 'judge-start':
      return `judging ${event.rows} rows of run ${event.run_id} with ${event.judge.model} (${event.judge.endpoint}, prompt ${event.judge.prompt_version})`;
    case 'canary':
      return event.report;
    case 'judged':
      return `${event.model} ${event.case_id}: ${event.verdict}${event.note ? ` — ${event.note}` : ''}`;
    case 'notice':
      return event.message;
  }
}
