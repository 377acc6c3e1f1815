import { beforeAll, describe, expect, it } from 'vitest';
import { loadRealCases, REAL_CASES_DIR } from './real-set';
import { applyProfile, loadProfiles } from './profiles';
import type { LoadedCase } from './schema/case';
import { sandboxFor } from './test-sandbox';
import { formatVerifySummary } from './verify/report';
import { verifyCases } from './verify/index';
import { formatProblem } from './yaml-source';

/** The repository's real case set: a broken case cannot land. */
let cases: LoadedCase[] = [];
beforeAll(async () => {
  cases = await loadRealCases();
});

describe('the real cases/ directory', () => {
  it('loads, and every profile resolves', async () => {
    expect(cases.length).toBeGreaterThan(0);
    const p = await loadProfiles(REAL_CASES_DIR);
    if (!p.ok) throw new Error(p.problems.map(formatProblem).join('\n'));
    expect(p.profiles.map((x) => x.name).sort()).toEqual(expect.arrayContaining(['chat', 'coding', 'full', 'quick', 'standard']));
    for (const profile of p.profiles) applyProfile(profile, cases);
  });

  it('verifies with zero problems in the real sandbox', async (ctx) => {
    const sandbox = await sandboxFor(ctx);
    const report = await verifyCases(cases, { sandbox });
    const bad = report.results.filter((r) => !r.ok).map((r) => `${r.file}:\n  ${r.problems.join('\n  ')}`);
    expect(bad, formatVerifySummary(report)).toEqual([]);
    expect(report.checked).toBe(cases.length);
    expect(report.executed).toBeGreaterThan(0);
    expect(report.rederived).toBeGreaterThan(0);
    expect(report.negative_controls).toBeGreaterThan(0);
    expect(report.haystacks).toBeGreaterThan(0);
  }, 600_000);
});
