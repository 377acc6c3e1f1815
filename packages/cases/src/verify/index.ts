import type { Sandbox } from '@crucibleforge/sandbox';
import type { LoadedCase } from '../schema/case';
import { verifyCase } from './case';
import type { CaseVerifyResult, VerifyOptions, VerifyReport } from './report';

/**
 * `cases verify`: every case proves itself (schema already checked by the loader). Runs `concurrency`
 * cases at a time; the sandbox's own pool bounds the processes. Infrastructure failures (no sandbox)
 * throw; every case-level failure is a problem in the report.
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
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      if (options.signal?.aborted) throw options.signal.reason;
      const i = next++;
      const r = await verifyCase(cases[i]!, getSandbox, options.signal, options.clock);
      results[i] = r;
      options.onResult?.(r);
    }
  };
  const n = Math.max(1, Math.min(options.concurrency ?? 4, cases.length));
  await Promise.all(Array.from({ length: n }, worker));
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
