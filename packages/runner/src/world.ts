import { realSleep, systemClock, type Clock, type FetchLike, type RandomSource, type Sleep } from '@crucibleforge/core';
import type { Sandbox } from '@crucibleforge/sandbox';
import type { ClientFactory } from './client';
import type { ResolvedModel } from './config';
import { RunnerError } from './errors';
import { DEFAULT_RETRY, type RetryPolicy } from './retry';

/** A held GPU lease (or anything else that must be given back after a model's cases). */
export interface HeldLease {
  release(): Promise<unknown>;
  /** Aborts when the lease ends without our release (lost: idle TTL ran out, the server forgot it); the model's work stops. */
  readonly signal?: AbortSignal;
}

/** Acquires the `lease:` of a model before its cases; the default uses @crucibleforge/lease. */
export type LeaseAcquirer = (model: ResolvedModel, signal: AbortSignal, notice: (message: string) => void) => Promise<HeldLease>;

/** Asks an endpoint what it knows about a model (context length) when models.yaml does not say. */
export type MetadataLookup = (model: ResolvedModel, apiKey: string | undefined) => Promise<{ context_length: number | null }>;

/** The outside world a run touches; every part has a real default. */
export interface RunWorld {
  fetch?: FetchLike;
  clock?: Clock;
  sleep?: Sleep;
  random?: RandomSource;
  /** Wall-clock time for stamps (default `new Date()`). */
  now?: () => Date;
  /** The grading sandbox, or a factory called the first time a case needs it. */
  sandbox?: Sandbox | (() => Promise<Sandbox>);
  clientFactory?: ClientFactory;
  acquireLease?: LeaseAcquirer;
  metadata?: MetadataLookup;
  retry?: Partial<RetryPolicy>;
  /**
   * Values that must never be stored or emitted (the API keys of every configured provider, lease keys):
   * the caller resolves them (see `configuredSecrets`); the run adds the keys of its own plan.
   */
  secrets?: readonly string[];
}

export interface ResolvedWorld {
  fetch: FetchLike | undefined;
  clock: Clock;
  sleep: Sleep;
  random: RandomSource;
  now: () => Date;
  sandbox: () => Promise<Sandbox>;
  clientFactory: ClientFactory;
  acquireLease: LeaseAcquirer | undefined;
  metadata: MetadataLookup | undefined;
  retry: RetryPolicy;
  secrets: readonly string[];
}

export function resolveWorld(world: RunWorld, defaults: { clientFactory: ClientFactory; sandbox: () => Promise<Sandbox>; acquireLease?: LeaseAcquirer; metadata?: MetadataLookup }): ResolvedWorld {
  let sandboxPromise: Promise<Sandbox> | null = null;
  const given = world.sandbox;
  const sandbox = () => {
    sandboxPromise ??= typeof given === 'function' ? given() : given ? Promise.resolve(given) : defaults.sandbox();
    return sandboxPromise;
  };
  return {
    fetch: world.fetch,
    clock: world.clock ?? systemClock,
    sleep: world.sleep ?? realSleep,
    random: world.random ?? Math.random,
    now: world.now ?? (() => new Date()),
    sandbox,
    clientFactory: world.clientFactory ?? defaults.clientFactory,
    acquireLease: world.acquireLease ?? defaults.acquireLease,
    metadata: world.metadata ?? defaults.metadata,
    retry: { ...DEFAULT_RETRY, ...world.retry },
    secrets: world.secrets ?? [],
  };
}

export function noSandbox(): Promise<Sandbox> {
  return Promise.reject(new RunnerError('RUNNER_CONFIG_INVALID', 'this case needs the sandbox, and none was provided'));
}

/** 8 random hex characters from the injected random source. */
export function hexId(random: RandomSource, length = 12): string {
  let out = '';
  while (out.length < length) out += Math.floor(random() * 0x10000).toString(16).padStart(4, '0');
  return out.slice(0, length);
}
