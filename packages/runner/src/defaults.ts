import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { FetchLike } from '@crucibleforge/core';
import { acquireLease, acquireLocalLease, type LeaseTimers } from '@crucibleforge/lease';
import { takeBusyLock } from './busy-lock';
import { createSandbox } from '@crucibleforge/sandbox';
import { createTimedCompleter, listModelMetadata } from '@crucibleforge/timing';
import type { ClientFactory } from './client';
import { isInProcess } from './config-schema';
import { inProcessClient, inProcessMetadata } from './in-process';
import { RunnerError } from './errors';
import type { ResolvedModel } from './config';
import type { HeldLease, LeaseAcquirer, MetadataLookup } from './world';
import type { Sandbox } from '@crucibleforge/sandbox';

/**
 * The real client: the timing package's streamed, timed completer, with the provider's reasoning switch;
 * for a `llamacpp-inprocess` provider the in-process llama.cpp engine (loaded on the first request).
 */
export const timingClientFactory: ClientFactory = (model, apiKey, world) => {
  const provider = model.provider;
  if (isInProcess(provider)) return inProcessClient(provider, model.model.id, world);
  return createTimedCompleter({
    baseUrl: provider.base_url,
    ...(apiKey === undefined ? {} : { apiKey }),
    model: model.model.id,
    providerKind: provider.kind,
    ...(world.fetch ? { fetch: world.fetch } : {}),
    ...(world.clock ? { clock: world.clock } : {}),
    timeouts: model.timeouts,
  });
};

/** Context length from the endpoint's own model listing (LM Studio, Ollama, /v1/models), when it says. */
export function timingMetadata(fetch?: FetchLike): MetadataLookup {
  return async (model, apiKey) => {
    if (isInProcess(model.provider)) return inProcessMetadata(model.provider);
    const meta = await listModelMetadata(model.provider.base_url, {
      ...(fetch ? { fetch } : {}),
      ...(apiKey === undefined ? {} : { apiKey }),
      model: model.model.id,
    });
    const info = meta.models.find((m) => m.id === model.model.id);
    return { context_length: info?.max_context ?? null };
  };
}

/** The default grading sandbox: bubblewrap, refusing to run unsandboxed unless allowed. */
export function defaultSandbox(options: { allowUnsandboxed?: boolean; poolSize?: number } = {}): () => Promise<Sandbox> {
  return () => createSandbox(options);
}

export interface LeaseAcquirerOptions {
  env: Record<string, string | undefined>;
  /** Where local lock files live (e.g. ~/.cache/crucibleforge/locks). */
  cacheDir: string;
  fetch?: FetchLike;
  holder?: string;
  /** Heartbeat timers and monotonic clock for StudioForge leases (default real; tests pass manual ones). */
  timers?: LeaseTimers;
  now?: () => number;
}

/** The lock directory of a local endpoint: one per base_url (trailing slashes and case of the origin ignored). */
export function endpointLockDir(cacheDir: string, baseUrl: string): string {
  let key = baseUrl.trim().replace(/\/+$/, '');
  try {
    const url = new URL(key);
    key = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    // not a URL: key on the text as written
  }
  return join(cacheDir, `endpoint-${createHash('sha256').update(key).digest('hex').slice(0, 16)}`);
}

/**
 * The implicit lock of a local endpoint (a local provider kind without a `lease:` block), so a GUI run and a
 * CLI run never drive one local GPU at once. Refuses at once when a live process holds it, naming the holder.
 */
function lockEndpoint(model: ResolvedModel, cacheDir: string, holder: string, signal: AbortSignal): Promise<HeldLease> {
  const url = model.provider.base_url;
  return takeBusyLock({
    dir: endpointLockDir(cacheDir, url),
    what: `the local endpoint ${url}`,
    reason: `benchmark ${model.label} on ${url}`,
    advice: 'Wait for that run to finish (a lock whose process has died is taken over automatically), or add a lease: block to share it on purpose.',
    holder,
    signal,
  });
}

/**
 * Acquires a model's `lease:` block: a StudioForge lease when `server` is set, else a local lock on this
 * machine's GPUs. Waits for a busy rig up to `wait_s` and reports the waits as notices. A local provider
 * without a `lease:` block gets an implicit lock keyed by its base_url (see {@link endpointLockDir}).
 */
export function createLeaseAcquirer(options: LeaseAcquirerOptions): LeaseAcquirer {
  return async (model, signal, notice) => {
    const lease = model.model.lease;
    if (!lease) {
      if (model.local) return lockEndpoint(model, options.cacheDir, options.holder ?? 'crucibleforge', signal);
      throw new RunnerError('RUNNER_CONFIG_INVALID', `model "${model.label}" has no lease block`);
    }
    const devices = lease.devices ?? [0];
    const holder = options.holder ?? 'crucibleforge';
    const waitMs = (lease.wait_s ?? 600) * 1000;
    if (!lease.server) {
      return acquireLocalLease({ devices, cacheDir: options.cacheDir, holder, reason: `benchmark ${model.label}`, waitMs, signal });
    }
    const fromEnv = (variable: string | undefined, what: string): string | undefined => {
      if (!variable) return undefined;
      const value = options.env[variable];
      if (!value) {
        throw new RunnerError('RUNNER_MISSING_API_KEY', `the lease server for "${model.label}" needs ${what}: set the environment variable ${variable}`, {
          details: { variable },
        });
      }
      return value;
    };
    const apiKey = fromEnv(lease.api_key_env, 'a key');
    const pin = fromEnv(lease.pin_env, 'a pairing PIN');
    const auth = {
      ...(apiKey ? { apiKey, ...(lease.api_key_header === 'x-api-key' ? { apiKeyHeader: 'x-api-key' as const } : {}) } : {}),
      ...(pin ? { pin } : {}),
    };
    return acquireLease({
      server: lease.server,
      ...(apiKey || pin ? { auth } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.timers ? { timers: options.timers } : {}),
      ...(options.now ? { now: options.now } : {}),
      devices,
      modelIds: lease.model_ids ?? [model.model.id],
      holder,
      reason: `benchmark ${model.label}`,
      ...(lease.idle_ttl_s === undefined ? {} : { idleTtlS: lease.idle_ttl_s }),
      ...(lease.priority ? { priority: lease.priority as 1 | 2 | 3 } : {}),
      waitMs,
      signal,
      onProgress: (event) => {
        if (event.type === 'lease-wait') notice(`GPU busy (${event.message}); asking again in ${Math.round(event.waitMs / 1000)} s`);
        if (event.type === 'lease-lost') notice(`lease lost: ${event.message}`);
      },
    });
  };
}
