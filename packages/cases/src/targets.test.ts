import { beforeAll, describe, expect, it } from 'vitest';
import { loadRealCases } from './real-set';
import { isSeeded } from './materialize';
import type { LoadedCase } from './schema/case';

/** Issues 6 and 7: the size and shape the real case set must keep (total, hard, per category, seeded share). */
let cases: LoadedCase[] = [];
beforeAll(async () => {
  cases = await loadRealCases();
});

const TARGETS: Record<string, { total: number; hard?: number }> = {
  coding: { total: 75, hard: 55 },
  math: { total: 45, hard: 35 },
  reasoning: { total: 45, hard: 35 },
  tooluse: { total: 40, hard: 28 },
  injection: { total: 16, hard: 10 },
  instruct: { total: 35, hard: 20 },
  longctx: { total: 30, hard: 20 },
  prose: { total: 16 },
  agent: { total: 8 },
};

function count(list: LoadedCase[]): { total: number; hard: number } {
  return { total: list.length, hard: list.filter((c) => c.def.difficulty === 'hard').length };
}

describe('the real case set meets the issue 6/7 targets', () => {
  it('holds at least 300 cases, 200 of them hard', () => {
    expect(count(cases).total).toBeGreaterThanOrEqual(300);
    expect(count(cases).hard).toBeGreaterThanOrEqual(200);
  });

  it.each(Object.entries(TARGETS))('%s meets its count and hard count', (category, want) => {
    const got = count(cases.filter((c) => c.def.category === category));
    expect(got.total, `${category}: ${got.total} cases`).toBeGreaterThanOrEqual(want.total);
    if (want.hard !== undefined) expect(got.hard, `${category}: ${got.hard} hard`).toBeGreaterThanOrEqual(want.hard);
  });

  it('at least 20 coding cases enforce a complexity limit', () => {
    const enforced = cases.filter((c) => c.def.category === 'coding' && c.def.grader.type === 'code' && c.def.grader.complexity !== undefined);
    expect(enforced.length).toBeGreaterThanOrEqual(20);
  });

  it('at least 40 % of math, reasoning and coding cases are seeded (drawn per run)', () => {
    const pool = cases.filter((c) => ['math', 'reasoning', 'coding'].includes(c.def.category));
    const seeded = pool.filter((c) => isSeeded(c.def)).length;
    expect(seeded / pool.length, `${seeded} of ${pool.length} seeded`).toBeGreaterThanOrEqual(0.4);
  });
});
