import { beforeAll, describe, expect, it } from 'vitest';
import { loadRealSet } from './real-set';
import { applyProfile } from './profiles';
import type { Profile } from './profiles';
import type { LoadedCase } from './schema/case';
import { sandboxFor } from './test-sandbox';
import { formatVerifySummary } from './verify/report';
import { verifyCases } from './verify/index';

/** The repository's real case set: a broken case cannot land. */
let cases: LoadedCase[] = [];
let profiles: Profile[] = [];
beforeAll(async () => {
  ({ cases, profiles } = await loadRealSet());
});

describe('the real cases/ directory', () => {
  it('loads, and every profile resolves', async () => {
    expect(cases.length).toBeGreaterThan(0);
    expect(profiles.map((x) => x.name).sort()).toEqual(expect.arrayContaining(['chat', 'coding', 'full', 'quick', 'standard']));
    for (const profile of profiles) applyProfile(profile, cases);
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
