import type { ResultRow } from '@crucibleforge/core';
import { describe, expect, it } from 'vitest';
import { ALL_CASES, makeRow, XSS } from './__fixtures__/results';
import { compareRuns } from './compare';
import { DEFAULT_GATE, parseGate, parseThresholds } from './compare-gate';
import { renderComparisonMarkdown } from './render-compare-markdown';
import { renderComparisonText } from './render-compare-text';

function rows(model: string, failing: string[], reason = 'wrong'): ResultRow[] {
  return ALL_CASES.filter((c) => c.short.startsWith('MZ') || c.short.startsWith('IZ')).map((c) =>
    makeRow({ model, short: c.short, status: failing.includes(c.short) ? 'fail' : 'pass', reason: failing.includes(c.short) ? reason : 'ok' }),
  );
}

/** Baseline fails `baseFails`; the candidate fails MZ01–MZ06 and IZ01 (reason with markup and a pipe). */
const compareWith = (baseFails: string[], maxDrop: number) =>
  compareRuns({
    baseline: { run_id: 'run-a', model: 'base', rows: rows('base', baseFails) },
    candidate: { run_id: 'run-a', model: 'cand', rows: rows('cand', ['MZ01', 'MZ02', 'MZ03', 'MZ04', 'MZ05', 'MZ06', 'IZ01'], `${XSS} | pipe`) },
    thresholds: { max_drop_pp: maxDrop },
  });

describe('parseGate', () => {
  it('reads a comma list, expands speed and all, knows none, and names an unknown gate', () => {
    expect(parseGate('ability,speed')).toEqual(['ability', 'decode', 'prefill', 'ttft']);
    expect(parseGate(' TTFT , cost,ttft')).toEqual(['ttft', 'cost']);
    expect(parseGate('all')).toEqual(['ability', 'decode', 'prefill', 'ttft', 'cost', 'tokens']);
    expect(parseGate('none')).toEqual([]);
    expect(parseGate('')).toEqual([...DEFAULT_GATE]);
    expect(() => parseGate('ability,latency')).toThrow(/unknown gate "latency" \(expected ability, decode, prefill, ttft, cost, tokens, speed, all, none\)/);
  });
});

describe('parseThresholds', () => {
  it('reads points and percents with or without their unit, skips absent values, and names a bad one', () => {
    expect(parseThresholds({ max_drop_pp: '3pp', max_slowdown: '10%', max_cost_increase: '25', max_token_increase: '' })).toEqual({ max_drop_pp: 3, max_slowdown: 0.1, max_cost_increase: 0.25 });
    expect(parseThresholds({ max_drop_pp: null, max_slowdown: undefined })).toEqual({});
    expect(() => parseThresholds({ max_slowdown: 'fast' }, (k) => `--${k}`)).toThrow('--max_slowdown must be a percentage ≥ 0 (e.g. 10%), got "fast"');
    expect(() => parseThresholds({ max_drop_pp: '-1' })).toThrow('max_drop_pp must be percentage points ≥ 0');
  });
});

describe('renderComparisonText', () => {
  it('gives the verdicts, the flips (pass → fail first) and each gate check', () => {
    // 7 regressions, 1 improvement (IZ06): P(X ≤ 1 | n = 8) = 9/256, two-sided 18/256 = 0.0703 → within noise
    const text = renderComparisonText(compareWith(['IZ06'], 3));
    expect(text).toContain('baseline   run-a:base (base-id)\ncandidate  run-a:cand (cand-id)\n12 paired cases (graded on both sides at the same revision and seed) · no detectable change\n');
    expect(text).toMatch(/ {2}all +no detectable change +91\.7% → 41\.7% \(−50\.0 pp\) +12 cases +7 pass→fail, 1 fail→pass, McNemar p=0\.070\n/);
    // math 6 vs 0 is p = 2/64 alone, Holm over two categories doubles it
    expect(text).toMatch(/ {2}math +no detectable change .* 6 pass→fail, 0 fail→pass, McNemar p=0\.031 \(Holm p=0\.063\)/);
    expect(text).toMatch(/flipped pass → fail \(7\):\n {2}MZ01 \[math, easy\]/);
    expect(text).toMatch(/flipped fail → pass \(1\):\n {2}IZ06 \[injection, hard\] {2}wrong\n/);
    expect(text).toContain('gate ability, decode T/s, prefill T/s, TTFT (max drop 3 pp, max slowdown 0%, α 0.05): passed');
    expect(text).toMatch(/ {2}n\/a {3}decode T\/s: not checked: no speed data for the baseline run-a:base or the candidate run-a:cand: their runs have/);
  });
});

describe('renderComparisonMarkdown', () => {
  it('is a pull-request comment: headline, one table, folded flips with escaped reasons, gate checks', () => {
    // 7 regressions, 0 improvements: p = 2/128 → worse by 58.3 pp, beyond the 3 pp allowed
    const md = renderComparisonMarkdown(compareWith([], 3));
    expect(md).toMatch(/^### CrucibleForge compare: ❌ gate failed — worse: ability\n/);
    expect(md).toContain('**Baseline** run-a:base → **candidate** run-a:cand · 12 paired cases (same revision and seed)');
    expect(md).toContain('| Metric | Baseline | Candidate | Change | Test | Verdict |');
    expect(md).toContain('| Ability: all | 100.0% (12/12) | 41.7% (5/12) | −58.3 pp | 7 pass→fail, 0 fail→pass, McNemar p=0.016 | **worse** |');
    expect(md).toContain('| Ability: math | 100.0% (6/6) | 0.0% (0/6) | −100.0 pp | 6 pass→fail, 0 fail→pass, McNemar p=0.031 (Holm p=0.063) | no detectable change |');
    expect(md).toContain('<details><summary>Flipped cases: 7 pass → fail, 0 fail → pass</summary>');
    // model and grader text cannot open tags or break the table
    expect(md).not.toMatch(/(^|[^\\])<(script|\/script|img)/);
    expect(md).toContain('\\</script>\\<script>');
    expect(md).toContain('\\| pipe');
    expect(md).toContain('**Gate** ability, decode T/s, prefill T/s, TTFT (max drop 3 pp, max slowdown 0%, α 0.05): **failed**');
    expect(md).toMatch(/- ❌ ability: worse beyond the 3 pp allowed: all −58\.3 pp \(7 pass→fail/);
    expect(md).toContain('- ➖ decode T/s: not checked');
  });

  it('says the gate passed when the drop is within what is allowed', () => {
    const md = renderComparisonMarkdown(compareWith([], 60));
    expect(md).toMatch(/^### CrucibleForge compare: ✅ gate passed — worse: ability\n/);
    expect(md).toContain('- ✅ ability: worse but within the 60 pp allowed: all −58.3 pp');
  });
});
