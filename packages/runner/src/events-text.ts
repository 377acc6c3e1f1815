/**
 * The one text of what a run reports: each event as the line the CLI prints and the GUI logs, the summary, the
 * cost estimate. Pure; the apps decide where it goes (a terminal redraws progress, a log keeps every line). Model
 * and endpoint text in it (grader reasons, judge notes, stop messages) shows its control characters, never obeys them.
 */
import { neutralizeControls, type SpeedSummary } from '@crucibleforge/core';
import type { RunEvent, RunSummary } from './events';
import type { JudgeEvent } from './judge-run';
import type { RunPlan } from './plan';
import type { RegradeSummary } from './regrade';

/** `$12.34`, or `$0.0123` under a dollar. */
function formatUsd(usd: number): string {
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

/** `45s`, `3m05s`, `1h02m`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** One line of a model's speed medians: `TTFT 0.043 s · decode 2414 T/s · prefill 1182 T/s · plausibility HIGH`. */
function formatSpeedSummary(s: SpeedSummary): string {
  const f = (v: number | null, d: number) => (v === null ? '—' : v.toFixed(d));
  return `TTFT ${f(s.ttft_s, 3)} s · decode ${f(s.decode_tps, 0)} T/s · prefill ${f(s.prefill_tps, 0)} T/s · plausibility ${s.plausibility?.confidence ?? '—'}`;
}

const STATUS_WORD = { pass: 'PASS', fail: 'FAIL', pending: 'JUDGE', skipped: 'SKIP', error: 'ERROR' } as const;

function progressText(e: Extract<RunEvent, { type: 'progress' }>): string {
  const parts = [`[${e.done}/${e.total}]`, `${e.passes} passed`];
  if (e.tokens_per_s !== null) parts.push(`${e.tokens_per_s.toFixed(1)} tok/s`);
  if (e.cost_usd > 0) parts.push(formatUsd(e.cost_usd));
  if (e.eta_s !== null && e.done < e.total) parts.push(`ETA ${formatDuration(e.eta_s)}`);
  return parts.join(' · ');
}

function runEventLine(event: RunEvent): string | null {
  switch (event.type) {
    case 'run-start':
      return `${event.resumed ? 'resuming' : 'starting'} run ${event.run_id}: ${event.models.join(', ')} — ${event.total - event.already_done} of ${event.total} cases to run (results in ${event.dir})`;
    case 'model-start':
      return `${event.model}: ${event.cases} cases`;
    case 'preflight':
      return `${event.model}: preflight ${event.ok ? 'ok' : 'FAILED'} — ${event.message}${event.ok && event.context_length !== null ? `, context ${event.context_length}` : ''}`;
    case 'speed':
      return `${event.model}: speed ${formatSpeedSummary(event.summary)} (${event.requests} requests${event.failures > 0 ? `, ${event.failures} failed` : ''})`;
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
    case 'progress':
      return null;
    case 'run-end':
      return null;
  }
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
  return lines.map(neutralizeControls);
}

function judgeEventLine(event: Exclude<JudgeEvent, { type: 'notice' }>): string {
  switch (event.type) {
    case 'judge-start':
      return `judging ${event.rows} rows of run ${event.run_id} with ${event.judge.model} (${event.judge.endpoint}, prompt ${event.judge.prompt_version})`;
    case 'canary':
      return event.report;
    case 'judged':
      return `${event.model} ${event.case_id}: ${event.verdict}${event.note ? ` — ${event.note}` : ''}`;
  }
}

const JUDGE_TYPES = new Set<string>(['judge-start', 'canary', 'judged']);

/**
 * The line of a run or judge event (a case's verdict, a model stopping, a notice, the progress line), or null
 * for an event that is only state (a case starting, the run's end: see summaryLines).
 */
export function eventText(event: RunEvent | JudgeEvent): string | null {
  const line = rawEventText(event);
  return line === null ? null : neutralizeControls(line);
}

function rawEventText(event: RunEvent | JudgeEvent): string | null {
  if (event.type === 'notice') return `${'model' in event && event.model ? `${event.model}: ` : ''}${event.message}`;
  if (event.type === 'progress') return progressText(event);
  if (JUDGE_TYPES.has(event.type)) return judgeEventLine(event as Exclude<JudgeEvent, { type: 'notice' }>);
  return runEventLine(event as RunEvent);
}

/** What a priced plan may cost at most, per model, and the budget: the lines asked about before it starts. */
export function estimateLines(plan: Pick<RunPlan, 'estimate' | 'budgetUsd' | 'speed'>): string[] {
  const measured = (model: string) => (plan.speed?.models.includes(model) ? ' and its speed measurement' : '');
  return [
    `estimated cost (upper bound, full token budgets): ${formatUsd(plan.estimate.total_usd)}`,
    ...plan.estimate.per_model.filter((m) => m.priced).map((m) => `  ${m.model}: up to ${formatUsd(m.usd)} for ${m.cases} cases${measured(m.model)}`),
    ...(plan.budgetUsd === null ? [] : [`budget: ${formatUsd(plan.budgetUsd)} (the run stops before passing it)`]),
  ];
}

/** What `regrade` says: rows regraded with which grader version, each changed verdict, what was kept and why. */
export function regradeLines(s: RegradeSummary): string[] {
  const verb = s.dry_run ? 'would change' : 'changed';
  const out = [`${s.dry_run ? 'dry run: ' : ''}regraded ${s.regraded} row${s.regraded === 1 ? '' : 's'} of run ${s.run_id} with ${s.grader_version}; ${s.changed.length} ${verb} verdict`];
  for (const c of s.changed) {
    out.push(`  ${c.model} ${c.case_id}${c.seed === null ? '' : ` (seed ${c.seed})`}: ${c.from.status} → ${c.to.status} (${c.to.reason.slice(0, 100)}; was ${c.from.grader_version ?? 'unversioned'}: ${c.from.reason.slice(0, 80)})`);
  }
  if (s.skipped.length > 0) {
    const reasons = new Map<string, number>();
    for (const k of s.skipped) {
      const why = k.reason.replace(/ \(revision .*\)$/, '');
      reasons.set(why, (reasons.get(why) ?? 0) + 1);
    }
    out.push(`kept ${s.skipped.length} as they were: ${[...reasons].map(([why, n]) => `${n} ${why}`).join('; ')}`);
  }
  return out.map(neutralizeControls);
}
