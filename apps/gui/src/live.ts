import { formatSpeedSummary } from '@crucibleforge/report';
import type { RunEvent, RunProgress, RunSummary } from '@crucibleforge/runner';

/** What the live page receives over server-sent events (one `event:` type each). */
export type LiveMessage =
  | { type: 'start'; run_id: string; models: string[]; total: number; already_done: number; resumed: boolean }
  | ({ type: 'progress' } & RunProgress)
  | { type: 'log'; level: 'info' | 'pass' | 'fail' | 'warn' | 'error'; text: string; at: string }
  | {
      type: 'case';
      model: string;
      case_id: string;
      seed: number | null;
      category: string;
      status: string;
      reason: string;
      decode_tps: number | null;
    }
  | { type: 'model'; model: string; state: 'running' | 'stopped' | 'finished'; done: number; total: number; passes: number; message: string | null }
  | { type: 'end'; summary: RunSummary }
  | { type: 'failed'; message: string };

const pct = (n: number, d: number) => (d > 0 ? `${Math.round((100 * n) / d)}%` : '–');
const seconds = (s: number | null) => (s === null ? '?' : `${s.toFixed(2)} s`);

/** One run event as the live page shows it: state updates plus a readable log line. */
export function liveMessages(event: RunEvent, at: string): LiveMessage[] {
  const log = (level: Extract<LiveMessage, { type: 'log' }>['level'], text: string): LiveMessage => ({ type: 'log', level, text, at });
  switch (event.type) {
    case 'run-start':
      return [
        { type: 'start', run_id: event.run_id, models: event.models, total: event.total, already_done: event.already_done, resumed: event.resumed },
        log(
          'info',
          `${event.resumed ? 'resuming' : 'starting'} run ${event.run_id}: ${event.models.join(', ')}; ${event.total} case runs` +
            (event.already_done > 0 ? ` (${event.already_done} already done)` : ''),
        ),
      ];
    case 'model-start':
      return [
        { type: 'model', model: event.model, state: 'running', done: 0, total: event.cases, passes: 0, message: null },
        log('info', `${event.model}: ${event.cases} cases to run`),
      ];
    case 'preflight':
      return [
        event.ok
          ? log(
              'info',
              `${event.model}: preflight ok (answered as ${event.served_model ?? 'unnamed'}, reasoning ${event.reasoning ? 'on' : 'off'}, ` +
                `context ${event.context_length ?? 'unknown'}, first token ${seconds(event.ttft_s)})`,
            )
          : log('error', `${event.model}: preflight failed: ${event.message}`),
      ];
    case 'speed':
      return [log('info', `${event.model}: speed ${formatSpeedSummary(event.summary)} (${event.requests} requests${event.failures > 0 ? `, ${event.failures} failed` : ''})`)];
    case 'case-start':
      return [];
    case 'case-end': {
      const row = event.row;
      const status = row.grade.status;
      const level = status === 'pass' ? 'pass' : status === 'fail' ? 'fail' : status === 'error' ? 'error' : 'info';
      const seed = row.seed === null ? '' : ` (seed ${row.seed})`;
      return [
        {
          type: 'case',
          model: row.model,
          case_id: row.case_id,
          seed: row.seed,
          category: row.category,
          status,
          reason: row.grade.reason,
          decode_tps: row.timings.decode_tps,
        },
        log(level, `${row.model} · ${row.case_id}${seed}: ${status.toUpperCase()} — ${row.grade.reason}`),
      ];
    }
    case 'model-stopped':
      return [log('error', `${event.model} stopped (${event.reason}): ${event.message}`)];
    case 'model-end': {
      const o = event.outcome;
      return [
        { type: 'model', model: o.model, state: o.stopped ? 'stopped' : 'finished', done: o.done, total: o.total, passes: o.passes, message: o.stopped?.message ?? null },
        log(o.stopped ? 'warn' : 'info', `${o.model}: ${o.passes}/${o.done} passed (${pct(o.passes, o.done)})${o.stopped ? `, stopped: ${o.stopped.reason}` : ''}`),
      ];
    }
    case 'notice':
      return [log('warn', `${event.model ? `${event.model}: ` : ''}${event.message}`)];
    case 'progress': {
      const { type: _type, ...progress } = event;
      return [{ type: 'progress', ...progress }];
    }
    case 'run-end': {
      const s = event.summary;
      return [
        log(
          'info',
          `run ${s.run_id} ${s.complete ? 'finished' : 'ended early'}: ${s.passes} passed, ${s.failures} failed, ${s.errors} errors, ` +
            `${s.skipped} skipped, ${s.pending_judge} waiting for the judge; ${s.done}/${s.total} done` +
            (s.cost_usd > 0 ? `, $${s.cost_usd.toFixed(4)}` : ''),
        ),
        { type: 'end', summary: s },
      ];
    }
  }
}

/** One server-sent event (`id`, `event`, `data` lines; data split so a newline can never end it early). */
export function sseFrame(id: number, message: LiveMessage): string {
  const data = JSON.stringify(message).split('\n').join('\ndata: ');
  return `id: ${id}\nevent: ${message.type}\ndata: ${data}\n\n`;
}
