/** Test helper (not exported from the package): the shared real sandbox for sandbox tests. */
import { existsSync } from 'node:fs';
import { BWRAP_CANDIDATES, createSandbox, type Sandbox } from '@crucibleforge/sandbox';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The CI variable as the test run saw it (vitest.config.ts provides it). */
    CI: string;
  }
}

/** What the sandbox tests do on this host: run, skip visibly, or fail. */
export type SandboxTestPlan = { kind: 'run' } | { kind: 'skip'; reason: string } | { kind: 'fail'; reason: string };

/**
 * Pure policy. Skip (with the reason shown by the reporter) only when bwrap is not installed and we are not
 * in CI; fail when CI is set and the sandbox is unusable, and when bwrap is installed but does not work
 * (a broken sandbox must never look like a pass).
 */
export function sandboxTestPlan(host: { available: boolean; bwrapInstalled: boolean; reason: string | null }, ci: boolean): SandboxTestPlan {
  if (host.available) return { kind: 'run' };
  const why = host.reason ?? 'the sandbox is unusable';
  if (ci) return { kind: 'fail', reason: `CI is set, but the sandbox is unusable: ${why}` };
  if (!host.bwrapInstalled) return { kind: 'skip', reason: `bwrap is not installed (${why})` };
  return { kind: 'fail', reason: `bwrap is installed but the sandbox is unusable: ${why}` };
}

/** CI set to anything but "", "0" or "false". */
export function isCI(env: Record<string, string | undefined>): boolean {
  const v = env['CI'];
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

interface Shared {
  sandbox: Sandbox | null;
  plan: SandboxTestPlan;
}

let shared: Promise<Shared> | null = null;

/** One real sandbox per test file (pool of 2: this machine has 2 cores), or the plan saying why not. */
export function testSandbox(): Promise<Shared> {
  shared ??= createSandbox({ poolSize: 2 }).then(
    (sandbox): Shared => ({ sandbox, plan: { kind: 'run' } }),
    (error: unknown): Shared => {
      const reason = error instanceof Error ? error.message : String(error);
      const bwrapInstalled = BWRAP_CANDIDATES.some((p) => existsSync(p));
      return { sandbox: null, plan: sandboxTestPlan({ available: false, bwrapInstalled, reason }, isCI({ CI: inject('CI') })) };
    },
  );
  return shared;
}

/**
 * The sandbox for the running test: skips the test with the reason when bwrap is not installed (outside
 * CI), throws (fails the test) when the sandbox should work but does not.
 */
export async function sandboxFor(ctx: { skip: (note?: string) => never }): Promise<Sandbox> {
  const t = await testSandbox();
  if (t.sandbox) return t.sandbox;
  if (t.plan.kind === 'skip') ctx.skip(`no sandbox: ${t.plan.reason}`);
  throw new Error(t.plan.kind === 'fail' ? t.plan.reason : 'no sandbox');
}
