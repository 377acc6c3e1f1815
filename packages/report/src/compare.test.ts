import type { ResultRow } from '@crucibleforge/core';
import { describe, expect, it } from 'vitest';
import { ALL_CASES, caseId, makeRow } from './__fixtures__/results';
import { compareRuns } from './compare';
import type { CompareSide } from './compare-types';
import { ReportError } from './errors';
import { holmAdjust } from './stats';

type Status = ResultRow['grade']['status'];

/** One row per fixture case of `prefixes` (e.g. ['MZ', 'CZ']: 6 maths and 6 coding cases), all passing unless told. */
function rows(model: string, prefixes: string[], statuses: Record<string, Status> = {}, patch: Partial<ResultRow> = {}, run = 'run-a'): ResultRow[] {
  return ALL_CASES.filter((c) => prefixes.some((p) => c.short.startsWith(p))).map((c) =>
    makeRow({ model, short: c.short, status: statuses[c.short] ?? 'pass', reason: statuses[c.short] === 'fail' ? `wrong on ${c.short}` : 'ok', run, patch }),
  );
}

const fails = (...shorts: string[]): Record<string, Status> => Object.fromEntries(shorts.map((s) => [s, 'fail' as const]));

function side(model: string, r: ResultRow[], extra: Partial<CompareSide> = {}): CompareSide {
  return { run_id: r[0]?.run_id ?? 'run-a', model, rows: r, ...extra };
}

describe('holmAdjust', () => {
  it('steps down: the i-th smallest p times (m − i + 1), never below an earlier one, capped at 1', () => {
    // sorted 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → kept at 0.06
    expect(holmAdjust([0.01, 0.04, 0.03]).map((p) => Number(p.toFixed(12)))).toEqual([0.03, 0.06, 0.06]);
    expect(holmAdjust([0.5, 0.9])).toEqual([1, 1]);
    expect(holmAdjust([])).toEqual([]);
    expect(() => holmAdjust([1.5])).toThrow(/p-value 0 must be in 0\.\.1/);
  });
});

describe('compareRuns: ability', () => {
  it('runs an exact McNemar test overall and per category (Holm-adjusted) and lists the flips, regressions first', () => {
    // baseline: all 12 pass. candidate: fails MZ01–MZ06 and CZ01-prime-census, CZ02; passes the rest.
    // overall: 8 regressions, 0 improvements → p = 2·(½)^8 = 2/256 = 0.0078125 → worse.
    // math: 6 vs 0 → p = 2/64 = 0.03125; coding: 2 vs 0 → p = 2/4 = 0.5.
    // Holm over the two categories: math 2·0.03125 = 0.0625, coding max(0.0625, 0.5) = 0.5 → neither is worse alone.
    const base = rows('a', ['MZ', 'CZ']);
    const cand = rows('b', ['MZ', 'CZ'], fails('MZ01', 'MZ02', 'MZ03', 'MZ04', 'MZ05', 'MZ06', 'CZ01', 'CZ02'));
    const c = compareRuns({ baseline: side('a', base), candidate: side('b', cand) });
    expect(c.ability.overall).toMatchObject({ cases: 12, baseline_passes: 12, candidate_passes: 4, regressions: 8, improvements: 0, verdict: 'worse' });
    expect(c.ability.overall.p_value).toBe(2 / 256);
    expect(c.ability.overall.delta_pp).toBeCloseTo((-8 / 12) * 100, 10);
    const [coding, math] = c.ability.categories;
    expect(coding).toMatchObject({ scope: 'coding', regressions: 2, improvements: 0, p_value: 0.5, p_adjusted: 0.5, verdict: 'no-change' });
    expect(math).toMatchObject({ scope: 'math', regressions: 6, p_value: 2 / 64, p_adjusted: 0.0625, verdict: 'no-change' });
    expect(c.ability.flipped.map((f) => f.case_id)).toEqual([caseId('CZ01'), 'CZ02', 'MZ01', 'MZ02', 'MZ03', 'MZ04', 'MZ05', 'MZ06']);
    expect(c.ability.flipped[0]).toMatchObject({ direction: 'regression', category: 'coding', reason: 'wrong on CZ01' });
    expect(c.gate).toMatchObject({ failed: true, metrics: ['ability', 'decode', 'prefill', 'ttft'], unmeasured: ['decode', 'prefill', 'ttft'] });
    expect(c.gate.checks[0]).toMatchObject({ metric: 'ability', failed: true, verdict: 'worse' });
  });

  it('says better the other way round, and lists the improvements with the baseline’s failing reason', () => {
    const good = rows('a', ['MZ']);
    const bad = rows('b', ['MZ'], fails('MZ01', 'MZ02', 'MZ03', 'MZ04', 'MZ05', 'MZ06'));
    const c = compareRuns({ baseline: side('b', bad), candidate: side('a', good) });
    expect(c.ability.overall).toMatchObject({ regressions: 0, improvements: 6, p_value: 0.03125, verdict: 'better' });
    expect(c.ability.flipped.every((f) => f.direction === 'improvement' && f.reason.startsWith('wrong on'))).toBe(true);
    expect(c.gate.failed).toBe(false);
  });

  it('keeps within noise what an exact test cannot tell apart: 5 against 0 is p = 1/16, 3 against 1 is p = 5/8', () => {
    const base = rows('a', ['MZ', 'CZ'], fails('CZ06'));
    // 5 regressions (MZ01–MZ05), 0 improvements
    const five = compareRuns({ baseline: side('a', base), candidate: side('b', rows('b', ['MZ', 'CZ'], fails('MZ01', 'MZ02', 'MZ03', 'MZ04', 'MZ05', 'CZ06'))) });
    expect(five.ability.overall).toMatchObject({ regressions: 5, improvements: 0, p_value: 0.0625, verdict: 'no-change' });
    // 3 regressions (MZ01–MZ03), 1 improvement (CZ06): P(X ≤ 1 | n = 4) = 5/16, two-sided 10/16
    const mixed = compareRuns({ baseline: side('a', base), candidate: side('b', rows('b', ['MZ', 'CZ'], fails('MZ01', 'MZ02', 'MZ03'))) });
    expect(mixed.ability.overall).toMatchObject({ regressions: 3, improvements: 1, p_value: 0.625, verdict: 'no-change' });
    expect(mixed.gate.failed).toBe(false);
  });

  it('a run compared with itself: no detectable change anywhere, and the gate passes', () => {
    const r = [...rows('a', ['MZ', 'CZ'], fails('MZ02')), ...rows('b', ['MZ'])];
    const speed = { model: 'a', decode_tps: 100, prefill_tps: 900, ttft_s: 0.2, rounds: [1, 2].map((i) => ({ prompt: 'short', decode_tps: 99 + i, prefill_tps: 890 + i, ttft_s: 0.19 + i / 100 })) };
    const c = compareRuns({ baseline: side('a', r, { speed }), candidate: side('a', r, { speed }) });
    expect(c.same_side).toBe(true);
    expect(c.ability.overall).toMatchObject({ cases: 12, regressions: 0, improvements: 0, p_value: 1, verdict: 'no-change' });
    expect(c.ability.categories.every((cell) => cell.verdict === 'no-change')).toBe(true);
    expect(c.speed.metrics.map((m) => [m.ratio, m.verdict])).toEqual([[1, 'no-change'], [1, 'no-change'], [1, 'no-change']]);
    expect(c.tokens).toMatchObject({ verdict: 'no-change', higher: 0, lower: 0, ratio: 1 });
    expect(c.gate).toMatchObject({ failed: false, unmeasured: [] });
    expect(c.notes).toContain('baseline and candidate are the same model of the same run');
  });

  it('takes the latest attempt of each case (an older failing attempt does not count)', () => {
    const base = rows('a', ['MZ']);
    const older = makeRow({ model: 'a', short: 'MZ01', status: 'fail', finished: '2026-04-01T10:00:00.000Z' });
    const c = compareRuns({ baseline: side('a', [...base, older]), candidate: side('b', rows('b', ['MZ'])) });
    expect(c.baseline.rows).toBe(6);
    expect(c.ability.overall.regressions).toBe(0);
  });
});

describe('compareRuns: what cannot be paired', () => {
  it('leaves out other revisions, other seeds, one-sided and ungraded cases, and says so', () => {
    const base = rows('a', ['MZ', 'CZ']);
    const cand = rows('b', ['MZ']).map((r) =>
      r.case_id === 'MZ01' ? { ...r, case_revision: 'r2' } : r.case_id === 'MZ02' ? { ...r, seed: 8 } : r.case_id === 'MZ03' ? { ...r, grade: { status: 'pending' as const, reason: 'awaiting the judge' } } : r,
    );
    const c = compareRuns({ baseline: side('a', base, { seed: 1 }), candidate: side('b', cand, { seed: 2 }) });
    expect(c.ability.overall.cases).toBe(3);
    expect(c.ability.excluded).toEqual({
      baseline_only: [caseId('CZ01'), 'CZ02', 'CZ03', 'CZ04', 'CZ05', 'CZ06'],
      candidate_only: [],
      revision: [{ case_id: 'MZ01', baseline: 'r1', candidate: 'r2' }],
      seed: [{ case_id: 'MZ02', baseline: 7, candidate: 8 }],
      ungraded: [{ case_id: 'MZ03', baseline: 'pass', candidate: 'pending' }],
    });
    const note = c.notes.find((n) => n.startsWith('left out of the paired test'));
    expect(note).toContain('6 only in the baseline');
    expect(note).toContain('1 at a different case revision (e.g. MZ01: r1 vs r2');
    expect(note).toContain('1 at a different seed (baseline run seed 1, candidate run seed 2');
    expect(note).toContain('rerun with --seed 1');
    expect(note).toContain('1 not graded on both sides');
  });

  it('refuses sides that share no graded case, explaining seeds, revisions and ungraded rows', () => {
    const base = rows('a', ['MZ']);
    const reseeded = rows('b', ['MZ'], {}, { seed: 99 });
    const thrown = (candidate: ResultRow[], extra: Partial<CompareSide> = {}) => {
      try {
        compareRuns({ baseline: side('a', base, { seed: 1 }), candidate: side('b', candidate, extra) });
      } catch (error) {
        return error as ReportError;
      }
      throw new Error('expected a throw');
    };
    const seeds = thrown(reseeded, { seed: 99 });
    expect(seeds).toBeInstanceOf(ReportError);
    expect(seeds.code).toBe('REPORT_COMPARE_NOTHING_SHARED');
    expect(seeds.message).toMatch(/^baseline run-a:a and candidate run-a:b share no case graded on both at the same revision and seed: of their 6 common cases, 6 at a different seed \(baseline run seed 1, candidate run seed 99/);
    expect(thrown(rows('b', ['MZ'], {}, { case_revision: 'r9' })).message).toContain('6 at a different case revision (e.g. MZ01: r1 vs r9');
    expect(thrown(rows('b', ['CZ'])).message).toContain('they have no case in common (baseline 6 cases, candidate 6 cases)');
    const pending = rows('b', ['MZ']).map((r) => ({ ...r, grade: { status: 'pending' as const, reason: '' } }));
    expect(thrown(pending).message).toContain('6 not graded on both sides (pending the judge, skipped or errored');
  });

  it('names the side and the models a run has when the model has no rows', () => {
    const r = rows('a', ['MZ']);
    expect(() => compareRuns({ baseline: side('a', r), candidate: side('nosuch', r) })).toThrow(
      /candidate run-a:nosuch: the run has no rows for model "nosuch" \(it has rows for a\)/,
    );
    expect(() => compareRuns({ baseline: side('a', r), candidate: side('a', [{ ...r[0]!, case_id: '' }]) })).toThrow(/candidate \(run run-a\): rows\[0\].*case_id/);
  });

  it('notes cases judged by different judges', () => {
    const judge = (model: string) => ({ verdict: 'correct' as const, note: '', identity: { model, endpoint: 'http://j', prompt_version: 'v3' }, samples: 1, agreement: 1, judged_at: '2026-05-01T11:00:00.000Z' });
    const c = compareRuns({ baseline: side('a', rows('a', ['PZ'], {}, { judge: judge('j1') })), candidate: side('b', rows('b', ['PZ'], {}, { judge: judge('j2') })) });
    expect(c.notes).toContain('6 judged cases were judged by different judges (baseline j1 (prompt v3), candidate j2 (prompt v3)): their verdicts are not strictly comparable');
  });

  it('rejects bad options, naming them', () => {
    const r = rows('a', ['MZ']);
    const input = { baseline: side('a', r), candidate: side('a', r) };
    expect(() => compareRuns({ ...input, alpha: 0 })).toThrow(/alpha must be between 0 and 1/);
    expect(() => compareRuns({ ...input, thresholds: { max_slowdown: -0.1 } })).toThrow(/thresholds\.max_slowdown must be a number ≥ 0/);
    expect(() => compareRuns({ ...input, gate: ['speedy' as never] })).toThrow(/unknown gate "speedy"/);
  });
});

describe('compareRuns: cost and tokens per case', () => {
  it('gives the per-case means and an exact sign test on the cases where both report the figure', () => {
    const base = rows('a', ['MZ'], {}, { cost_usd: 0.01 });
    // the candidate costs more on all 6 cases: sign test 6 vs 0 → p = 2/64; +50 % per case
    const cand = rows('b', ['MZ'], {}, { cost_usd: 0.015 });
    const c = compareRuns({ baseline: side('a', base), candidate: side('b', cand), gate: ['cost', 'tokens'], thresholds: { max_cost_increase: 0.2 } });
    expect(c.cost).toMatchObject({ cases: 6, higher: 6, lower: 0, p_value: 2 / 64, verdict: 'worse' });
    expect(c.cost.increase).toBeCloseTo(0.5, 12);
    expect(c.tokens).toMatchObject({ cases: 6, baseline_per_case: 300, candidate_per_case: 300, verdict: 'no-change' });
    expect(c.gate.checks.map((k) => [k.metric, k.failed])).toEqual([['cost', true], ['tokens', false]]);
    // within the allowed increase, worse but not failed
    const lenient = compareRuns({ baseline: side('a', base), candidate: side('b', cand), gate: ['cost'], thresholds: { max_cost_increase: 0.6 } });
    expect(lenient.gate.checks[0]).toMatchObject({ verdict: 'worse', failed: false });
    expect(lenient.gate.checks[0]!.reason).toContain('within the 60% allowed');
  });

  it('says unknown, not worse, when nothing is priced', () => {
    const c = compareRuns({ baseline: side('a', rows('a', ['MZ'])), candidate: side('b', rows('b', ['MZ'])), gate: ['cost'] });
    expect(c.cost).toMatchObject({ cases: 0, verdict: 'unknown', note: expect.stringContaining('not priced') });
    expect(c.gate).toMatchObject({ failed: false, unmeasured: ['cost'] });
  });
});
