import { CATEGORIES } from '@crucibleforge/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RUN_RATES, estimateRun } from './estimate';
import { applyProfile, findProfile, loadProfiles } from './profiles';
import { loadRealCases, REAL_CASES_DIR } from './real-set';
import { formatProblem } from './yaml-source';

/** issue 5: `standard` is 56 cases balanced across every category, under an hour for a 27B model at ~70 tok/s. */
describe('the real standard profile', () => {
  it('holds 56 cases from every category and fits in an hour (worst case from token budgets, judging included)', async () => {
    const loaded = { cases: await loadRealCases() };
    const profiles = await loadProfiles(REAL_CASES_DIR);
    if (!profiles.ok) throw new Error(profiles.problems.map(formatProblem).join('\n'));
    const profile = findProfile(profiles.profiles, 'standard');
    const cases = applyProfile(profile, loaded.cases);
    expect(cases).toHaveLength(56);
    const perCategory = new Map<string, number>();
    for (const c of cases) perCategory.set(c.def.category, (perCategory.get(c.def.category) ?? 0) + 1);
    expect([...perCategory.keys()].sort()).toEqual([...CATEGORIES].sort());
    // balanced: no category holds more than a fifth of the benchmark
    expect(Math.max(...perCategory.values())).toBeLessThanOrEqual(56 / 5);
    expect(DEFAULT_RUN_RATES).toMatchObject({ decode_tps: 70, prefill_tps: 1000 });
    const estimate = estimateRun(cases, DEFAULT_RUN_RATES, profile);
    expect(estimate.judge_s).toBeGreaterThan(0);
    expect(estimate.total_s, `standard needs ~${Math.round(estimate.total_s)} s`).toBeLessThan(3600);
  });
  it('quick is the bench-llm suite; coding, chat and full select by grader, not id lists', async () => {
    const profiles = await loadProfiles(REAL_CASES_DIR);
    if (!profiles.ok) throw new Error(profiles.problems.map(formatProblem).join('\n'));
    const get = (name: string) => findProfile(profiles.profiles, name);
    expect(get('quick').include).toEqual([{ tags: ['quick'] }]);
    expect(get('coding').include).toEqual([{ judged: false }]);
    expect(get('chat').include).toEqual([{ judged: true }]);
    expect(get('full').include).toEqual([{ all: true }]);
  });
});
