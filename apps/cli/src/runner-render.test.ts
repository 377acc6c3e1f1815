import { describe, expect, it } from 'vitest';
import { renderRun } from './runner-render';
import { eventText, type RunEvent, type RunRow } from '@crucibleforge/runner';
import { memoryIO } from '@crucibleforge/testkit';

function row(caseId: string, status: RunRow['grade']['status'], reason: string): RunRow {
  return {
    schema_version: 1, run_id: 'r', model: 'm', model_id: 'm', provider: 'p', case_id: caseId, case_revision: 'x',
    category: 'math', difficulty: 'easy', seed: null, messages: [], content: '', reasoning: '', tool_calls: [],
    finish_reason: 'stop', timings: { ttft_s: 0.1, ttft_content_s: 0.1, e2e_s: 1.25, decode_tps: 50 },
    usage: { prompt_tokens: 1, completion_tokens: 1, reasoning_tokens: null, cached_tokens: null, cost_usd: null },
    cost_usd: null, grade: { status, reason }, started_at: '', finished_at: '', attempt_id: 'a', max_tokens_sent: 64,
  };
}

const EVENTS: RunEvent[] = [
  { type: 'run-start', run_id: 'r1', dir: '/res/r1', resumed: false, models: ['m'], total: 2, already_done: 0 },
  { type: 'model-start', model: 'm', cases: 2 },
  { type: 'case-end', model: 'm', row: row('c-1', 'pass', 'ok') },
  { type: 'progress', done: 1, total: 2, passes: 1, tokens_per_s: 42.5, cost_usd: 0.0123, eta_s: 75 },
  { type: 'case-end', model: 'm', row: row('c-2', 'fail', 'expected 5, got 4') },
  { type: 'progress', done: 2, total: 2, passes: 1, tokens_per_s: 40, cost_usd: 0.02, eta_s: 0 },
];

async function* stream() {
  for (const e of EVENTS) yield e;
}

describe('rendering run events', () => {
  it('the progress line has done/total, passes, tokens/s, cost and ETA', () => {
    expect(eventText(EVENTS[3]!)).toBe('[1/2] · 1 passed · 42.5 tok/s · $0.0123 · ETA 1m15s');
  });

  it('plain lines when stdout is not a terminal (every case, no control characters)', async () => {
    const t = memoryIO();
    await renderRun(stream(), t.io);
    expect(t.stdout()).toBe(
      'starting run r1: m — 2 of 2 cases to run (results in /res/r1)\nm: 2 cases\nm c-1: PASS 1.3s — ok\nm c-2: FAIL 1.3s — expected 5, got 4\n',
    );
  });

  it('on a terminal the progress line is redrawn in place and only failures scroll', async () => {
    const t = memoryIO();
    (t.io.stdout as { isTTY?: boolean }).isTTY = true;
    await renderRun(stream(), t.io);
    const out = t.stdout();
    expect(out).not.toContain('c-1: PASS');
    expect(out).toContain('\r\x1b[2Km c-2: FAIL 1.3s — expected 5, got 4\n[1/2] · 1 passed');
    expect(out.endsWith('\r\x1b[2K')).toBe(true);
  });
});
