import { eventText, summaryLines, type RunEvent, type RunProgress, type RunSummary } from '@crucibleforge/runner';

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

/** The log level of an event's line. */
function levelOf(event: RunEvent): Extract<LiveMessage, { type: 'log' }>['level'] {
  switch (event.type) {
    case 'case-end': {
      const status = event.row.grade.status;
      return status === 'pass' ? 'pass' : status === 'fail' ? 'fail' : status === 'error' ? 'error' : 'info';
    }
    case 'preflight':
      return event.ok ? 'info' : 'error';
    case 'model-stopped':
      return 'error';
    case 'model-end':
      return event.outcome.stopped ? 'warn' : 'info';
    case 'notice':
      return 'warn';
    default:
      return 'info';
  }
}

/** The state updates of one run event for the live page (its log line is the runner's text, as the CLI prints it). */
function stateOf(event: RunEvent): LiveMessage[] {
  switch (event.type) {
    case 'run-start':
      return [{ type: 'start', run_id: event.run_id, models: event.models, total: event.total, already_done: event.already_done, resumed: event.resumed }];
    case 'model-start':
      return [{ type: 'model', model: event.model, state: 'running', done: 0, total: event.cases, passes: 0, message: null }];
    case 'case-end': {
      const row = event.row;
      return [{ type: 'case', model: row.model, case_id: row.case_id, seed: row.seed, category: row.category, status: row.grade.status, reason: row.grade.reason, decode_tps: row.timings.decode_tps }];
    }
    case 'model-end': {
      const o = event.outcome;
      return [{ type: 'model', model: o.model, state: o.stopped ? 'stopped' : 'finished', done: o.done, total: o.total, passes: o.passes, message: o.stopped?.message ?? null }];
    }
    case 'progress': {
      const { type: _type, ...progress } = event;
      return [{ type: 'progress', ...progress }];
    }
    case 'run-end':
      return [{ type: 'end', summary: event.summary }];
    default:
      return [];
  }
}

/** One run event as the live page shows it: state updates plus the readable log line(s). */
export function liveMessages(event: RunEvent, at: string): LiveMessage[] {
  const text = event.type === 'progress' ? null : event.type === 'run-end' ? summaryLines(event.summary).join('\n') : eventText(event);
  const log: LiveMessage[] = text === null ? [] : [{ type: 'log', level: levelOf(event), text, at }];
  const state = stateOf(event);
  return event.type === 'run-end' ? [...log, ...state] : [...state, ...log];
}

/** One server-sent event (`id`, `event`, `data` lines; data split so a newline can never end it early). */
export function sseFrame(id: number, message: LiveMessage): string {
  const data = JSON.stringify(message).split('\n').join('\ndata: ');
  return `id: ${id}\nevent: ${message.type}\ndata: ${data}\n\n`;
}
