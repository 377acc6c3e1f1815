import type { Sandbox } from '@crucibleforge/sandbox';
import { createSandbox } from '@crucibleforge/sandbox';

let shared: Promise<Sandbox | null> | null = null;

/**
 * One real sandbox per test file (pool of 2: this machine has 2 cores); null when bwrap is unusable, so
 * sandbox tests skip with a visible reason instead of failing on a machine without user namespaces.
 */
export function testSandbox(): Promise<Sandbox | null> {
  shared ??= createSandbox({ poolSize: 2 }).catch(() => null);
  return shared;
}
