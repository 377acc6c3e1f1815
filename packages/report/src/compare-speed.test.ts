import type { SpeedRound, SpeedSummary } from '@crucibleforge/core';
import { describe, expect, it } from 'vitest';
import { makeRow } from './__fixtures__/results';
import { compareRuns } from './compare';
import { compareSpeed, roundNoise } from './compare-speed';

/** A speed summary whose rounds are `decode` per prompt (prefill fixed at 1000, TTFT = 10 / decode). */
function summary(model: string, decode: Record<string, number[]>, medianDecode: number | null = null): SpeedSummary {
  const rounds: SpeedRound[] = Object.entries(decode).flatMap(([prompt, values]) =>
    values.map((v) => ({ prompt, decode_tps: v, prefill_tps: 1000, ttft_s: 10 / v })),
  );
  const all = rounds.map((r) => r.decode_tps!).sort((a, b) => a - b);
  const mid = all.length % 2 ? all[(all.length - 1) / 2]! : (all[all.length / 2 - 1]! + all[all.length / 2]!) / 2;
  return { model, decode_tps: medianDecode ?? mid, prefill_tps: 1000, ttft_s: 10 / (medianDecode ?? mid), rounds };
}

const src = (s: SpeedSummary | null, label = 'x') => ({ summary: s, label });

describe('the speed noise model', () => {
  it('noise = the largest |ln(round / its prompt median)| over prompts measured at least twice', () => {
    // A: median 105 → ln(105/100) = 0.04879…, ln(110/105) = 0.04652…; B: one round (not repeated) is ignored.
    expect(roundNoise(new Map([['A', [100, 110]], ['B', [300]]]))).toBeCloseTo(Math.log(105 / 100), 12);
    expect(roundNoise(new Map([['A', [100]]]))).toBeNull();
    expect(roundNoise(new Map([['A', [50, 50, 50]]]))).toBe(0);
  });

  it('calls a slowdown beyond both runs’ spread worse, with the ratio of the prompt medians', () => {
    // baseline: A 100, 110 (median 105), B 200, 220 (median 210) → noise ln(1.05) ≈ 4.9 %
    // candidate: A 80, 80; B 160, 160 → noise 0; ratio = geometric mean of 80/105 and 160/210 = 0.7619…
    const s = compareSpeed(src(summary('a', { A: [100, 110], B: [200, 220] })), src(summary('b', { A: [80, 80], B: [160, 160] })));
    const decode = s.metrics.find((m) => m.metric === 'decode_tps')!;
    expect(decode.ratio).toBeCloseTo(80 / 105, 12);
    expect(decode.slowdown).toBeCloseTo(1 - 80 / 105, 12);
    expect(decode.noise).toBeCloseTo(Math.log(1.05), 12);
    expect(decode.baseline).toMatchObject({ median: 155, rounds: 4, min: 100, max: 220 });
    expect(decode.verdict).toBe('worse');
    // TTFT = 10 / decode here: prompt A's baseline median is (0.1 + 10/110) / 2, the candidate's 0.125 (B: the
    // same ratio); longer is worse.
    const ttft = s.metrics.find((m) => m.metric === 'ttft_s')!;
    expect(ttft.ratio).toBeCloseTo(0.125 / ((0.1 + 10 / 110) / 2), 12);
    expect(ttft.verdict).toBe('worse');
    // prefill is the same on both sides (no spread, ratio 1): no detectable change.
    expect(s.metrics.find((m) => m.metric === 'prefill_tps')).toMatchObject({ ratio: 1, noise: 0, verdict: 'no-change' });
  });

  it('keeps a change inside the spread as no detectable change, and reads the other direction as better', () => {
    // candidate A 100, 100; B 205, 205: ln ratio = (ln(100/105) + ln(205/210)) / 2 = −0.0364 → |…| < 0.0488
    const inside = compareSpeed(src(summary('a', { A: [100, 110], B: [200, 220] })), src(summary('b', { A: [100, 100], B: [205, 205] })));
    const decode = inside.metrics[0]!;
    expect(Math.log(decode.ratio!)).toBeCloseTo((Math.log(100 / 105) + Math.log(205 / 210)) / 2, 12);
    expect(decode.verdict).toBe('no-change');
    const faster = compareSpeed(src(summary('a', { A: [80, 80], B: [160, 160] })), src(summary('b', { A: [100, 110], B: [200, 220] })));
    expect(faster.metrics.map((m) => m.verdict)).toEqual(['better', 'no-change', 'better']);
  });

  it('says unknown (never worse) without repeated rounds, without rounds at all, or without a shared prompt', () => {
    const once = compareSpeed(src(summary('a', { A: [100], B: [200] })), src(summary('b', { A: [50, 50] })));
    expect(once.metrics[0]).toMatchObject({ verdict: 'unknown', note: 'no repeated rounds on the baseline, so the noise is unknown' });
    // summaries written before rounds were kept: the medians' ratio is shown, the verdict is unknown
    const old = compareSpeed(src({ model: 'a', decode_tps: 100, prefill_tps: null, ttft_s: 0.1 }), src({ model: 'b', decode_tps: 50, prefill_tps: null, ttft_s: 0.2 }));
    expect(old.metrics[0]).toMatchObject({ ratio: 0.5, verdict: 'unknown', note: 'no repeated rounds on either side, so the noise is unknown' });
    expect(old.metrics[1]).toMatchObject({ ratio: null, verdict: 'unknown', note: 'not measured on either side' });
    const apart = compareSpeed(src(summary('a', { A: [100, 110] })), src(summary('b', { B: [100, 110] })));
    expect(apart.metrics[0]).toMatchObject({ verdict: 'unknown', note: 'the two speed runs share no prompt' });
  });

  it('with no speed data on a side: unavailable, every verdict unknown, and a gate on speed is not failed but unmeasured', () => {
    const missing = compareSpeed(src(summary('a', { A: [100, 110] }), 'the baseline r:a'), src(null, 'the candidate r:b'));
    expect(missing).toMatchObject({ available: false, note: 'no speed data for the candidate r:b: its run has no speed summary for the model' });
    expect(missing.metrics.map((m) => m.verdict)).toEqual(['unknown', 'unknown', 'unknown']);

    const rows = (model: string) => ['MZ01', 'MZ02'].map((short) => makeRow({ model, short }));
    const c = compareRuns({
      baseline: { run_id: 'r', model: 'a', rows: rows('a'), speed: summary('a', { A: [100, 110] }) },
      candidate: { run_id: 'r', model: 'b', rows: rows('b'), speed: null },
      gate: ['decode'],
    });
    expect(c.gate).toMatchObject({ failed: false, unmeasured: ['decode'] });
    expect(c.gate.checks[0]!.reason).toContain('not checked: no speed data for the candidate r:b: its run');
    expect(c.notes).toContain('no speed data for the candidate r:b: its run has no speed summary for the model');
  });

  it('fails the gate only beyond the allowed slowdown', () => {
    const rows = (model: string) => ['MZ01', 'MZ02'].map((short) => makeRow({ model, short }));
    const run = (max: number) =>
      compareRuns({
        baseline: { run_id: 'r', model: 'a', rows: rows('a'), speed: summary('a', { A: [100, 110], B: [200, 220] }) },
        candidate: { run_id: 'r', model: 'b', rows: rows('b'), speed: summary('b', { A: [80, 80], B: [160, 160] }) },
        gate: ['decode'],
        thresholds: { max_slowdown: max },
      }).gate;
    // the slowdown is 1 − 80/105 = 23.8 %
    expect(run(0.1)).toMatchObject({ failed: true });
    expect(run(0.1).checks[0]!.reason).toMatch(/^worse beyond the 10% allowed \(×0\.76, 24% slower; noise ±5\.0%\)$/);
    expect(run(0.3)).toMatchObject({ failed: false, checks: [{ verdict: 'worse', failed: false }] });
  });

  it('rejects speed data it cannot read, naming the field', () => {
    const bad = { ...summary('b', { A: [1, 2] }), rounds: [{ prompt: 'A', decode_tps: 1, prefill_tps: null, ttft_s: null }, { prompt: 'A', decode_tps: '2', prefill_tps: null, ttft_s: null }] } as unknown as SpeedSummary;
    expect(() => compareSpeed(src(summary('a', { A: [1, 2] })), src(bad))).toThrow(/candidate\.speed\.rounds\[1\]\.decode_tps must be a number or null, got "2"/);
    const noPrompt = { ...summary('b', { A: [1, 2] }), rounds: [{ decode_tps: 1 }] } as unknown as SpeedSummary;
    expect(() => compareSpeed(src(noPrompt), src(summary('a', { A: [1, 2] })))).toThrow(/baseline\.speed\.rounds\[0\]\.prompt must be a string/);
  });
});
