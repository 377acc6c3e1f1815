import type { Sandbox } from '@crucibleforge/sandbox';
import type { LoadedCase } from '../schema/case';
import { verifySeeds } from '../materialize';
import { needsSandbox, verifyCase } from './case';
import type { CaseVerifyResult, VerifyOptions, VerifyReport } from './report';

export const DEFAULT_VERIFY_CONCURRENCY = 8;

/**
 * How much sandbox time a case is likely to take, for scheduling only (longest first, so the pool does not
 * end on one long case): complexity cases wait out their too_slow controls, code cases run several
 * solutions, seeded cases repeat everything per seed.
 */
export function verifyCost(c: LoadedCase): number {
  const d = c.def;
  if (!needsSandbox(c)) return 0;
  const seeds = c.seeded ? verifySeeds(d).length : 1;
  let perSeed = (d.derive ? 1 : 0) + (d.verify?.program ? 1 : 0);
  if (d.grader.type === 'code') {
    const wrong = d.verify?.wrong_solutions ?? [];
    perSeed += 2 + wrong.length + (d.grader.complexity ? 20 * wrong.filter((w) => w.too_slow).length : 0);
  }
  return seeds * perSeed;
}

/**
 * `cases verify`: every case proves itself (schema already checked by the loader). Cases that need the
 * sandbox run `concurrency` at a time, the costliest first; the sandbox's own pool bounds the processes.
 * Cases that need no sandbox (tool references, instruction checks, haystacks, judged) run alongside and
 * never wait for the pool. Infrastructure failures (no sandbox) throw; every case-level failure is a
 * problem in the report. Results keep the order of `cases`.
 */
export async function verifyCases(cases: LoadedCase[], options: VerifyOptions = {}): Promise<VerifyReport> {
  let pending: Promise<Sandbox> | null = null;
  const getSandbox = (): Promise<Sandbox> => {
    if (!pending) {
      const s = options.sandbox;
      if (!s) pending = Promise.reject(new Error('verify needs a sandbox for code, derive and verify programs'));
      else pending = typeof s === 'function' ? s() : Promise.resolve(s);
    }
    return pending;
  };
  const results: CaseVerifyResult[] = new Array(cases.length);
  const run = async (i: number) => {
    if (options.signal?.aborted) throw options.signal.reason;
    const r = await verifyCase(cases[i]!, getSandbox, options.signal, options.clock);
    results[i] = r;
    options.onResult?.(r);
  };
  const indexes = cases.map((_, i) => i);
  const heavy = indexes.filter((i) => needsSandbox(cases[i]!)).sort((a, b) => verifyCost(cases[b]!) - verifyCost(cases[a]!) || a - b);
  const light = indexes.filter((i) => !needsSandbox(cases[i]!));
  let next = 0;
  const worker = async () => {
    while (next < heavy.length) await run(heavy[next++]!);
  };
  const lightLane = async () => {
    for (const i of light) await run(i);
  };
  const n = Math.max(1, Math.min(options.concurrency ?? DEFAULT_VERIFY_CONCURRENCY, heavy.length));
  await Promise.all([lightLane(), ...Array.from({ length: heavy.length > 0 ? n : 0 }, worker)]);
  const sum = (k: 'executed' | 'rederived' | 'negative_controls' | 'haystacks') => results.reduce((a, r) => a + r[k], 0);
  return {
    checked: results.length,
    problems: results.filter((r) => !r.ok).length,
    executed: sum('executed'),
    rederived: sum('rederived'),
    negative_controls: sum('negative_controls'),
    haystacks: sum('haystacks'),
    results,
    calibrations: results.flatMap((r) => r.calibrations),
  };
}
