import { apiKeyFor, resolveModel } from './config';
import type { CaseDriver } from './driver';
import { verifyModeOf } from './guard';
import { preflight, type PreflightResult } from './preflight';
import { createLeaseAcquirer, defaultSandbox, timingClientFactory, timingMetadata } from './defaults';
import { startRun, type RunHandle } from './engine';
import { planRun, type ConfigInput, type PlanOptions, type RunPlan } from './plan';
import { resolveWorld, type ResolvedWorld, type RunWorld } from './world';

export interface CreateRunOptions extends Omit<PlanOptions, 'driver'> {
  /** Where cases come from (default: @crucibleforge/cases on `casesDir`). */
  driver?: CaseDriver;
  world?: RunWorld;
  /** A plan made earlier with planRun (e.g. after asking about its cost estimate). */
  plan?: RunPlan;
  /** Lock-file directory for local `lease:` blocks (the default lease client needs it). */
  leaseCacheDir?: string;
  /** Let code cases run without bubblewrap (the default sandbox refuses otherwise). */
  allowUnsandboxed?: boolean;
  /** Aborting it stops the run (Ctrl-C): cases in flight end, what finished is kept and resumes later. */
  signal?: AbortSignal;
}

/** The driver a run uses when none is given: the cases package over `casesDir`. */
export async function defaultDriver(casesDir: string): Promise<CaseDriver> {
  const { createCasesDriver } = await import('./cases-driver');
  return createCasesDriver({ casesDir });
}

export function worldFor(options: Pick<CreateRunOptions, 'world' | 'env' | 'leaseCacheDir' | 'allowUnsandboxed'>): ResolvedWorld {
  const world = options.world ?? {};
  return resolveWorld(world, {
    clientFactory: timingClientFactory,
    sandbox: defaultSandbox({ allowUnsandboxed: options.allowUnsandboxed ?? false }),
    metadata: timingMetadata(world.fetch),
    ...(options.leaseCacheDir
      ? { acquireLease: createLeaseAcquirer({ env: options.env, cacheDir: options.leaseCacheDir, ...(world.fetch ? { fetch: world.fetch } : {}) }) }
      : {}),
  });
}

/**
 * Plans (unless a plan is given) and starts a run. Iterate `events` for progress; await `done` for the
 * summary; `stop()` ends it early (what finished is kept; the same command or `--resume` continues it).
 */
export async function createRun(options: CreateRunOptions): Promise<RunHandle> {
  const driver = options.driver ?? (await defaultDriver(options.casesDir));
  const plan = options.plan ?? (await planRun({ ...options, driver }));
  return startRun(plan, driver, worldFor(options), options.toolVersion, options.signal ? { signal: options.signal } : {});
}

/** One model's preflight on its own (what `status` shows): a real streamed completion and the wrong-model guard. */
export async function preflightModel(options: {
  config: ConfigInput;
  label: string;
  env: Record<string, string | undefined>;
  world?: RunWorld;
  signal?: AbortSignal;
}): Promise<PreflightResult> {
  const resolved = resolveModel(options.config, options.label);
  const world = worldFor({ env: options.env, ...(options.world ? { world: options.world } : {}) });
  const client = world.clientFactory(resolved, apiKeyFor(resolved, options.env), { fetch: world.fetch, clock: world.clock });
  try {
    return await preflight(resolved, client, verifyModeOf(resolved), world.retry, {
      sleep: world.sleep,
      random: world.random,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } finally {
    await client.close?.();
  }
}
