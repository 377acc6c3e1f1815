import type { RunEvent, RunRow } from '@crucibleforge/runner';
import { describe, expect, it } from 'vitest';
import { benchTestLines, paintFor } from '@crucibleforge/report';
import { main } from './main';
import { terminalWidth, useColor } from './output';
import { renderRun } from './runner-render';
import { fixtureWorkspace, memoryIO, startFixtureSim } from '@crucibleforge/testkit';

const ESC_OR_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const HOSTILE = 'got \u001b[2J\u001b[H\u001b]0;owned\u0007 and \u009b31m';

describe('colour: FORCE_COLOR, NO_COLOR, a terminal', () => {
  it('colours a terminal, not a pipe; NO_COLOR and TERM=dumb turn it off; FORCE_COLOR forces it', () => {
    expect(useColor(true, {})).toBe(true);
    expect(useColor(false, {})).toBe(false);
    expect(useColor(true, { NO_COLOR: '' })).toBe(false);
    expect(useColor(true, { TERM: 'dumb' })).toBe(false);
    expect(useColor(false, { FORCE_COLOR: '1' })).toBe(true);
    expect(useColor(false, { FORCE_COLOR: '0' })).toBe(false);
    expect(useColor(true, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(true);
    expect(paintFor(false, { FORCE_COLOR: '1' }).fail('FAIL')).toBe('\u001b[31mFAIL\u001b[39m');
  });
});

describe('terminal width', () => {
  it("takes a terminal's columns, else $COLUMNS, else 80", () => {
    expect(terminalWidth(memoryIO({ tty: true, columns: 132 }).io)).toBe(132);
    expect(terminalWidth(memoryIO({ env: { COLUMNS: '100' } }).io)).toBe(100);
    expect(terminalWidth(memoryIO({ env: { COLUMNS: 'wide' } }).io)).toBe(80);
  });
});

describe('model output on the terminal', () => {
  it('FAIL lines of a run show escape sequences and controls, never send them', async () => {
    const row = {
      schema_version: 1, run_id: 'r', model: 'm', model_id: 'm', provider: 'p', case_id: 'c-1', case_revision: 'x', category: 'math', difficulty: 'easy',
      seed: null, messages: [], content: HOSTILE, reasoning: '', tool_calls: [], finish_reason: 'stop', timings: { ttft_s: null, ttft_content_s: null, e2e_s: null, decode_tps: null },
      usage: { prompt_tokens: null, completion_tokens: null, reasoning_tokens: null, cached_tokens: null, cost_usd: null }, cost_usd: null,
      grade: { status: 'fail', reason: `expected 5, ${HOSTILE}` }, started_at: '', finished_at: '', attempt_id: 'a', max_tokens_sent: 1,
    } as RunRow;
    const events: RunEvent[] = [
      { type: 'case-end', model: 'm', row },
      { type: 'notice', model: 'm', message: `endpoint said: ${HOSTILE}` },
    ];
    async function* stream() {
      yield* events;
    }
    const t = memoryIO({ tty: true });
    await renderRun(stream(), t.io);
    expect(t.stdout()).toContain('m c-1: FAIL — expected 5, got ␛[2J␛[H␛]0;owned␇ and \\u009b31m');
    expect(t.stdout()).toContain('m: endpoint said: got ␛[2J');
    expect(t.stdout().replace(/\r\u001b\[2K/g, '')).not.toMatch(ESC_OR_CONTROL);
  });

  it("bench-llm's reasons are inert too, with or without colour", () => {
    const failed = { case_id: 'x', title: 'Tool Use', category: 'agent' as const, grade: { status: 'fail' as const, reason: HOSTILE } };
    for (const paint of [paintFor(false, {}), paintFor(true, {})]) {
      const text = benchTestLines(failed, 30, paint).join('\n').replace(/\u001b\[\d+m/g, '');
      expect(text).toContain('␛[2J');
      expect(text).not.toMatch(ESC_OR_CONTROL);
    }
  });
});

describe('what an endpoint says about itself is untrusted too', () => {
  it('models and bench-llm --list show a hostile model id inert', async () => {
    const evil = 'evil\u001b]0;owned\u0007\u001b[2J';
    const sim = await startFixtureSim([{ id: evil, first_token_base_ms: 1, decode_tps: 20_000, prefill_tps: 10_000_000, answer: { content: HOSTILE } }]);
    try {
      const ws = await fixtureWorkspace(sim.url);
      const models = memoryIO({ cwd: ws.dir, env: {} });
      expect(await main(['models', '--config', ws.config], models.io)).toBe(0);
      expect(models.stdout()).toContain('evil␛]0;owned␇␛[2J (not configured)');
      const list = memoryIO({ cwd: ws.dir, env: {} });
      expect(await main(['bench-llm', '--list', '--base-url', sim.url], list.io)).toBe(0);
      expect(list.stdout()).toContain('evil␛]0;owned␇␛[2J');
      for (const out of [models.stdout(), list.stdout()]) expect(out).not.toMatch(ESC_OR_CONTROL);
    } finally {
      await sim.close();
    }
  });
});
