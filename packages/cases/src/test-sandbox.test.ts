import { describe, expect, it } from 'vitest';
import { isCI, sandboxFor, sandboxTestPlan } from './test-sandbox';

describe('sandbox test policy', () => {
  it('runs when available; skips visibly only when bwrap is absent outside CI; fails otherwise', () => {
    expect(sandboxTestPlan({ available: true, bwrapInstalled: true, reason: null }, true)).toEqual({ kind: 'run' });
    expect(sandboxTestPlan({ available: false, bwrapInstalled: false, reason: 'no bwrap found' }, false)).toEqual({ kind: 'skip', reason: 'bwrap is not installed (no bwrap found)' });
    expect(sandboxTestPlan({ available: false, bwrapInstalled: false, reason: 'no bwrap found' }, true)).toEqual({
      kind: 'fail',
      reason: 'CI is set, but the sandbox is unusable: no bwrap found',
    });
    expect(sandboxTestPlan({ available: false, bwrapInstalled: true, reason: 'user namespaces disabled' }, false)).toEqual({
      kind: 'fail',
      reason: 'bwrap is installed but the sandbox is unusable: user namespaces disabled',
    });
  });
  it('reads CI like CI systems set it', () => {
    expect(isCI({ CI: 'true' })).toBe(true);
    expect(isCI({ CI: '1' })).toBe(true);
    expect(isCI({ CI: 'false' })).toBe(false);
    expect(isCI({ CI: '' })).toBe(false);
    expect(isCI({})).toBe(false);
  });
  it('sandboxFor gives this host a sandbox, or skips or fails as the plan says (never silently)', async () => {
    let skipped: string | undefined;
    const ctx = {
      skip: (note?: string): never => {
        skipped = note;
        throw new Error('skipped');
      },
    };
    const outcome = await sandboxFor(ctx).then(
      (s) => ({ sandbox: s.sandboxed }),
      (e: Error) => ({ error: e.message }),
    );
    if ('sandbox' in outcome) expect(outcome.sandbox).toBe(true);
    else if (skipped !== undefined) expect(skipped).toMatch(/^no sandbox: bwrap is not installed/);
    else expect(outcome.error).toMatch(/unusable/);
  });
});
