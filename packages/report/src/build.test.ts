import { CrucibleError } from '@crucibleforge/core';
import { describe, expect, it } from 'vitest';
import { GENERATED_AT, JUDGE_HOSTED, JUDGE_RIG, MANIFESTS, PAIRWISE, ROWS, SPEED, makeRow } from './__fixtures__/results';
import { buildReport } from './build';
import { failureLine } from './failures';
import { wilsonInterval } from '@crucibleforge/core';
import type { ReportData } from './types';

function full(): ReportData {
  return buildReport({
    rows: ROWS,
    manifests: MANIFESTS,
    speed: SPEED,
    pairwise: PAIRWISE,
    generatedAt: GENERATED_AT,
    toolVersion: '0.1.0',
  });
}

function model(data: ReportData, label: string) {
  const m = data.models.find((x) => x.model === label);
  if (!m) throw new Error(`no model ${label}`);
  return m;
}

describe('buildReport: counts and rates', () => {
  const data = full();

  it('ranks models by pooled pass rate', () => {
    expect(data.models.map((m) => [m.rank, m.model])).toEqual([
      [1, 'deepseek-pro'],
      [2, 'qwen3-local'],
      [3, 'llama-small'],
      [4, 'mystery-7b'],
    ]);
    expect(data.schema_version).toBe(1);
    expect(data.categories).toEqual(['coding', 'math', 'reasoning', 'tooluse', 'injection', 'instruct', 'longctx', 'prose', 'agent']);
  });

  it('uses the latest attempt per (model, case) by finished_at, whatever the input order', () => {
    expect(data.counts).toEqual({ rows_in: ROWS.length, rows_used: ROWS.length - 1, rows_superseded: 1, cases: 54 });
    const ds = model(data, 'deepseek-pro');
    // CZ02: the newer pass (run-b) wins over the older fail that comes later in the input.
    expect(ds.categories.coding).toMatchObject({ passes: 5, fails: 1, graded: 6 });
    expect(data.failures.some((f) => f.case_id === 'CZ02' && f.model === 'deepseek-pro')).toBe(false);
    expect(ds.run_ids).toEqual(['run-a', 'run-b']);
    // Reversing the input changes nothing.
    const reversed = buildReport({ rows: [...ROWS].reverse(), generatedAt: GENERATED_AT, toolVersion: '0.1.0' });
    expect(model(reversed, 'deepseek-pro').categories.coding?.passes).toBe(5);
  });

  it('keeps pending, skipped, errors and judge errors out of the denominator but counts them', () => {
    const ds = model(data, 'deepseek-pro');
    expect(ds.overall).toMatchObject({ attempted: 54, passes: 51, fails: 2, graded: 53, pending: 1, skipped: 0 });
    expect(ds.overall.rate).toBeCloseTo(51 / 53, 12);
    expect(ds.overall.ci95).toEqual(wilsonInterval(51, 53));
    expect(ds.categories.prose).toMatchObject({ passes: 5, graded: 5, pending: 1 });

    const qwen = model(data, 'qwen3-local');
    expect(qwen.overall).toMatchObject({ passes: 45, fails: 5, graded: 50, skipped: 2, errors: 1, judge_errors: 1, pending: 0 });
    expect(qwen.categories.longctx).toMatchObject({ passes: 3, fails: 1, graded: 4, skipped: 2 });
    expect(qwen.categories.agent).toMatchObject({ passes: 5, graded: 5, errors: 1 });
    expect(qwen.categories.prose).toMatchObject({ passes: 4, fails: 1, graded: 5, judge_errors: 1 });

    const llama = model(data, 'llama-small');
    expect(llama.overall).toMatchObject({ passes: 39, graded: 51, skipped: 3 });
    expect(llama.categories.coding).toMatchObject({ passes: 2, graded: 6 });
  });

  it('computes Hard % over hard cases only', () => {
    // deepseek: 18 hard cases, TZ06 failed, PZ06 pending → 16/17.
    expect(model(data, 'deepseek-pro').hard).toMatchObject({ passes: 16, graded: 17, pending: 1 });
    // llama: hard fails RZ05 RZ06 TZ05 TZ06 NZ06 IZ06 CZ05? (no: CZ05 passes) ; LZ05 LZ06 skipped → 10/16.
    expect(model(data, 'llama-small').hard).toMatchObject({ passes: 10, fails: 6, graded: 16, skipped: 2 });
  });

  it('leaves a category out for a model that never ran it', () => {
    const mystery = model(data, 'mystery-7b');
    expect(Object.keys(mystery.categories)).toEqual(['coding']);
    expect(mystery.overall).toMatchObject({ passes: 3, graded: 6, rate: 0.5 });
  });

  it('sums cost, counts overflows and takes speed from the speed run or else the rows', () => {
    expect(model(data, 'deepseek-pro').cost_usd).toBeCloseTo(2.7, 9);
    expect(model(data, 'mystery-7b').cost_usd).toBe(12);
    expect(model(data, 'qwen3-local').cost_usd).toBeNull();
    expect(model(data, 'deepseek-pro').overflow).toEqual({ total: 1, recovered: 1, unrecovered: 0 });
    expect(model(data, 'qwen3-local').overflow).toEqual({ total: 1, recovered: 0, unrecovered: 1 });
    expect(model(data, 'deepseek-pro').speed).toMatchObject({ decode_tps: 95.3, ttft_s: 0.42, source: 'speed-run' });
    expect(model(data, 'llama-small').speed).toMatchObject({ decode_tps: 125, ttft_s: 0.2, source: 'bench-rows' });
    expect(model(data, 'mystery-7b').speed).toBeNull();
  });

  it('records judge identities per model', () => {
    expect(model(data, 'deepseek-pro').judges).toEqual([JUDGE_RIG]);
    expect(model(data, 'llama-small').judges).toEqual([JUDGE_HOSTED]);
    expect(model(data, 'mystery-7b').judges).toEqual([]);
  });
});

describe('buildReport: comparability', () => {
  const data = full();
  const issues = data.comparability.issues;

  it('flags a case run at different revisions, naming models, revisions and the current one', () => {
    expect(data.comparability.comparable).toBe(false);
    expect(issues.find((i) => i.kind === 'case-revision')).toEqual({
      kind: 'case-revision',
      case_id: 'MZ03',
      category: 'math',
      current_revision: 'r2',
      revisions: [
        { revision: 'r1', models: ['deepseek-pro', 'qwen3-local'] },
        { revision: 'r2', models: ['llama-small'] },
      ],
    });
    // The newest manifest says r2 is current, so the r1 models carry the note.
    expect(model(data, 'deepseek-pro').notes.join()).toMatch(/case revision differs .* MZ03 \(r1\)/);
    expect(model(data, 'llama-small').notes.join()).not.toMatch(/case revision/);
  });

  it('flags different judges, naming which models each judged', () => {
    const judge = issues.find((i) => i.kind === 'judge');
    expect(judge).toMatchObject({
      kind: 'judge',
      expected: JUDGE_RIG,
      groups: [
        { identity: JUDGE_RIG, models: ['deepseek-pro', 'qwen3-local'], rows: 11 },
        { identity: JUDGE_HOSTED, models: ['llama-small'], rows: 6 },
      ],
    });
    expect(model(data, 'llama-small').notes).toContain('judged by gpt-judge (prompt v3)');
    expect(model(data, 'llama-small').comparable).toBe(false);
  });

  it('flags a model that ran a different case set', () => {
    const coverage = issues.find((i) => i.kind === 'coverage');
    expect(coverage?.kind === 'coverage' && coverage.models.find((m) => m.model === 'mystery-7b')?.cases).toBe(6);
    expect(model(data, 'mystery-7b').notes[0]).toMatch(/^ran 6 of 54 cases; missing /);
  });

  it('says comparable when every model ran the same cases at the same revision with one judge', () => {
    const clean = buildReport({
      rows: [makeRow({ model: 'a', short: 'CZ01' }), makeRow({ model: 'b', short: 'CZ01', status: 'fail', reason: 'x' })],
      generatedAt: GENERATED_AT,
      toolVersion: '0.1.0',
    });
    expect(clean.comparability).toEqual({ comparable: true, issues: [] });
    expect(clean.models.every((m) => m.comparable)).toBe(true);
  });

  it('without manifests, blames the minority revision', () => {
    const rows = [
      makeRow({ model: 'a', short: 'CZ01', revision: 'r1' }),
      makeRow({ model: 'b', short: 'CZ01', revision: 'r1' }),
      makeRow({ model: 'c', short: 'CZ01', revision: 'r9' }),
    ];
    const d = buildReport({ rows, generatedAt: GENERATED_AT, toolVersion: '0.1.0' });
    expect(d.models.filter((m) => !m.comparable).map((m) => m.model)).toEqual(['c']);
  });
});

describe('buildReport: grader versions', () => {
  it('says which graders graded each row, flags mixed versions, and shows a re-grade that changed a verdict', () => {
    const rows = [
      makeRow({ model: 'a', short: 'CZ03', status: 'fail', reason: 'expected 5, got 6', patch: { grader_version: 'graders/2', regraded_from: { status: 'pass', reason: 'answer 5', grader_version: null, at: '2025-01-02T00:00:00Z' } } }),
      makeRow({ model: 'a', short: 'CZ04', status: 'pass', reason: 'ok', patch: { grader_version: 'graders/2' } }),
      makeRow({ model: 'b', short: 'CZ03', status: 'fail', reason: 'expected 5, got 7' }),
      makeRow({ model: 'b', short: 'CZ04', status: 'pass', reason: 'ok', patch: { grader_version: 'graders/2' } }),
    ];
    const d = buildReport({ rows, generatedAt: GENERATED_AT, toolVersion: '0.1.0' });
    expect(d.models.find((m) => m.model === 'b')?.grader_versions).toEqual([{ version: 'graders/1', rows: 1 }, { version: 'graders/2', rows: 1 }].sort((x, y) => y.version.localeCompare(x.version)));
    expect(d.failures.map(failureLine)).toEqual([
      expect.stringMatching(/^a \[coding\] CZ03: expected 5, got 6 \(graders\/2, regraded: was pass\)$/),
      expect.stringMatching(/^b \[coding\] CZ03: expected 5, got 7 \(graders\/1\)$/),
    ]);
    expect(d.comparability.issues).toContainEqual({ kind: 'grader-version', newest: 'graders/2', groups: [{ version: 'graders/2', models: ['a', 'b'], rows: 3 }, { version: 'graders/1', models: ['b'], rows: 1 }] });
    expect(d.models.find((m) => m.model === 'b')?.notes).toContainEqual(expect.stringMatching(/^graded by older graders on 1 row\(s\) \(graders\/1\)/));
  });
});

describe('buildReport: failures', () => {
  const data = full();
  const lines = data.failures.map(failureLine);

  it('derives a TRUNCATED prefix from finish_reason length and usage', () => {
    expect(lines).toContain(
      'deepseek-pro [coding] CZ01-prime-census: TRUNCATED at 32768 tokens (32768 reasoning tokens); no code in response (graders/1)',
    );
  });

  it('does not add a second TRUNCATED when the grader already said so', () => {
    const row = makeRow({
      model: 'x',
      short: 'CZ01',
      status: 'fail',
      reason: 'truncated at 100 tokens; no answer',
      patch: { finish_reason: 'length' },
    });
    const d = buildReport({ rows: [row], generatedAt: GENERATED_AT, toolVersion: '0.1.0' });
    expect(d.failures[0]?.reason).toBe('truncated at 100 tokens; no answer');
  });

  it('lists every failure, error and judge error once, in rank then category order', () => {
    expect(lines).toContain('deepseek-pro [tooluse] TZ06-three-parallel-one-turn: 1 calls, expected 3 (graders/1)');
    expect(lines).toContain('qwen3-local [prose] PZ05: judge: incorrect — misses the twist in the last paragraph (graders/1)');
    expect(lines).toContain('qwen3-local [agent] AZ06: [error, not scored] transport failure: ECONNRESET (graders/1)');
    expect(lines).toContain('qwen3-local [prose] PZ06: [judge error, not scored] judge returned no parseable verdict (graders/1)');
    expect(data.failures.filter((f) => f.model === 'deepseek-pro')).toHaveLength(2);
    expect(data.failures.filter((f) => f.model === 'qwen3-local')).toHaveLength(7);
    expect(data.failures.filter((f) => f.model === 'llama-small')).toHaveLength(12);
    expect(data.failures).toHaveLength(2 + 7 + 12 + 3);
    expect(data.failures.slice(0, 3).map((f) => f.case_id)).toEqual(['CZ01-prime-census', 'TZ06-three-parallel-one-turn', 'CZ01-prime-census']);
    // Skipped and pending rows are not failures.
    expect(data.failures.some((f) => f.case_id === 'LZ05' || (f.model === 'deepseek-pro' && f.case_id === 'PZ06'))).toBe(false);
  });

  it('keeps the detail needed to audit a failure, capped', () => {
    const tz = data.failures.find((f) => f.case_id.startsWith('TZ06') && f.model === 'deepseek-pro');
    expect(tz?.detail.tool_calls).toEqual([{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }]);
    expect(tz?.detail.messages[1]?.content).toBe('Solve task TZ06.');
    const capped = buildReport({ rows: ROWS, generatedAt: GENERATED_AT, toolVersion: '0.1.0', maxDetailChars: 30 });
    const cz = capped.failures.find((f) => f.case_id === 'CZ01-prime-census' && f.model === 'deepseek-pro');
    expect(cz?.detail.reasoning).toMatch(/^.{30}\n… \[\d+ more characters not shown\]$/s);
  });
});

describe('buildReport: paired comparisons (exact McNemar)', () => {
  const data = full();
  const pair = (a: string, b: string) => data.paired.find((p) => p.a === a && p.b === b);

  it('compares every two models once, higher-ranked first', () => {
    expect(data.paired).toHaveLength(6);
  });

  it('says "beats" only at p < 0.05', () => {
    // Common graded cases exclude PZ06, LZ04–06 and MZ03 (different revisions): 49; only deepseek passed 10.
    expect(pair('deepseek-pro', 'llama-small')).toMatchObject({
      common: 49,
      a_only: 10,
      b_only: 0,
      excluded_revision: 1,
      verdict: 'a',
      summary: 'deepseek-pro beats llama-small (p=0.0020)',
    });
    expect(pair('deepseek-pro', 'llama-small')?.p_value).toBeCloseTo(0.001953125, 12);
    expect(pair('qwen3-local', 'llama-small')).toMatchObject({ common: 48, a_only: 9, b_only: 1, verdict: 'a' });
    expect(pair('qwen3-local', 'llama-small')?.summary).toBe('qwen3-local beats llama-small (p=0.021)');
  });

  it('calls a difference within noise otherwise', () => {
    expect(pair('deepseek-pro', 'qwen3-local')).toMatchObject({
      common: 50,
      both_pass: 45,
      a_only: 3,
      b_only: 0,
      both_fail: 2,
      p_value: 0.25,
      verdict: 'noise',
      summary: 'deepseek-pro vs qwen3-local: within noise (p=0.25)',
    });
  });

  it('names the lower-ranked model when it is the better one on the common cases', () => {
    const six = (p: string) => [1, 2, 3, 4, 5, 6].map((n) => `${p}0${n}`);
    const rows = [
      // wide: fails coding, passes math, reasoning, tooluse → 18/24 = 75 %.
      ...six('CZ').map((s) => makeRow({ model: 'wide', short: s, status: 'fail', reason: 'x' })),
      ...[...six('MZ'), ...six('RZ'), ...six('TZ')].map((s) => makeRow({ model: 'wide', short: s })),
      // narrow: passes coding, fails instruct → 6/12 = 50 %, so it ranks second.
      ...six('CZ').map((s) => makeRow({ model: 'narrow', short: s })),
      ...six('NZ').map((s) => makeRow({ model: 'narrow', short: s, status: 'fail', reason: 'y' })),
    ];
    const d = buildReport({ rows, generatedAt: GENERATED_AT, toolVersion: '0.1.0' });
    expect(d.models.map((m) => m.model)).toEqual(['wide', 'narrow']);
    // On the 6 common (coding) cases only narrow passed: 0 vs 6 → p = 2/64.
    expect(d.paired).toEqual([
      expect.objectContaining({ a: 'wide', b: 'narrow', common: 6, a_only: 0, b_only: 6, verdict: 'b', summary: 'narrow beats wide (p=0.031)' }),
    ]);
  });
});

describe('buildReport: pairwise', () => {
  it('totals wins, ties and losses from both sides and sorts by rating', () => {
    const pw = full().pairwise;
    expect(pw?.ratings.map((r) => r.model)).toEqual(['deepseek-pro', 'qwen3-local', 'llama-small']);
    expect(pw?.ratings[0]).toMatchObject({ wins: 14, ties: 3, losses: 3, games: 20, win_rate: 15.5 / 20, rating: 1180 });
    expect(pw?.ratings[2]).toMatchObject({ model: 'llama-small', wins: 6, ties: 1, losses: 13, games: 20 });
    expect(pw?.judge).toEqual(JUDGE_RIG);
  });
  it('is null without a pairwise summary', () => {
    expect(buildReport({ rows: ROWS, generatedAt: GENERATED_AT, toolVersion: '0.1.0' }).pairwise).toBeNull();
  });
});

describe('buildReport: input checks', () => {
  const codeOf = (fn: () => unknown): string | undefined => {
    try {
      fn();
    } catch (error) {
      return CrucibleError.isInstance(error) ? `${error.code}: ${error.message}` : `other: ${String(error)}`;
    }
    return undefined;
  };

  it('names the row and field of a malformed row', () => {
    const bad = { ...makeRow({ model: 'm', short: 'CZ01' }), finished_at: 'yesterday' };
    expect(codeOf(() => buildReport({ rows: [bad], generatedAt: GENERATED_AT, toolVersion: '1' }))).toBe(
      'REPORT_INVALID_ROW: rows[0] (model m, case CZ01-prime-census): field finished_at is not an ISO timestamp: "yesterday"',
    );
    const noStatus = { ...makeRow({ model: 'm', short: 'CZ01' }), grade: { status: 'maybe', reason: '' } } as never;
    expect(codeOf(() => buildReport({ rows: [noStatus], generatedAt: GENERATED_AT, toolVersion: '1' }))).toMatch(
      /^REPORT_INVALID_ROW: rows\[0\] .*grade.status must be one of/,
    );
  });

  it('rejects a bad generatedAt, an empty toolVersion and unknown model filters', () => {
    expect(codeOf(() => buildReport({ rows: [], generatedAt: 'now', toolVersion: '1' }))).toMatch(/^REPORT_INVALID_INPUT: .*generatedAt/);
    expect(codeOf(() => buildReport({ rows: [], generatedAt: GENERATED_AT, toolVersion: ' ' }))).toMatch(/toolVersion/);
    expect(codeOf(() => buildReport({ rows: ROWS, generatedAt: GENERATED_AT, toolVersion: '1', models: ['gpt-9'] }))).toMatch(
      /^REPORT_INVALID_INPUT: .*"gpt-9" in no run and no result row \(models: deepseek-pro, llama-small, mystery-7b, qwen3-local\)/,
    );
  });

  it('filters to the requested models', () => {
    const d = buildReport({ rows: ROWS, generatedAt: GENERATED_AT, toolVersion: '1', models: ['llama-small', 'qwen3-local'] });
    expect(d.models.map((m) => m.model)).toEqual(['qwen3-local', 'llama-small']);
    expect(d.paired).toHaveLength(1);
  });

  it('handles no rows at all', () => {
    const d = buildReport({ rows: [], generatedAt: GENERATED_AT, toolVersion: '1' });
    expect(d.models).toEqual([]);
    expect(d.comparability.comparable).toBe(true);
  });
});
