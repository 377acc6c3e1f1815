/**
 * What the roofline knows about this machine and a model's file, for `speed`, `bench-llm`, `models` and the
 * demo: the host's memory bandwidth (a STREAM-like probe, cached in a folder the caller names) and the served
 * model's GGUF (discovered in LM Studio / Ollama folders or from llama.cpp's /props).
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { cpus, hostname, totalmem } from 'node:os';
import { join } from 'node:path';
import type { ModelInfo, ProviderKind } from '@crucibleforge/timing';
import { lastLevelCacheBytes, measureHostBandwidth, type HostBandwidth } from './bandwidth';
import { discoverGguf, type GgufLocation, type ModelRoots } from './discover';
import type { GgufInfo } from './gguf';

/** A cached probe is re-measured after this long, or when the machine it describes changed. */
export const BANDWIDTH_MAX_AGE_DAYS = 30;
export const BANDWIDTH_FILE = 'host-bandwidth.json';

export interface HostBandwidthReading extends HostBandwidth {
  /** The machine it was measured on (host name, CPU model and count, memory). */
  machine: string;
  measured_at: string;
  /** True when read from the cache file rather than measured now. */
  cached: boolean;
}

export interface HostBandwidthOptions {
  /** The folder holding `host-bandwidth.json` (the app's user cache dir); none: measured every time. */
  cacheDir?: string | undefined;
  /** Measure even when a recent reading is cached. */
  refresh?: boolean;
  now?: () => Date;
}

function machineKey(): string {
  const cpu = cpus();
  return `${hostname()} · ${cpu[0]?.model.trim() ?? 'unknown CPU'} × ${cpu.length} · ${Math.round(totalmem() / 2 ** 30)} GiB`;
}

/**
 * This host's memory bandwidth: the cached probe when it is recent and from this machine, else a new
 * measurement (about half a second) written to `<cacheDir>/host-bandwidth.json`. A cache that cannot be
 * read or written is not an error: the probe just runs.
 */
export async function hostBandwidth(options: HostBandwidthOptions = {}): Promise<HostBandwidthReading> {
  const now = options.now ?? (() => new Date());
  const dir = options.cacheDir;
  const file = dir ? join(dir, BANDWIDTH_FILE) : null;
  const machine = machineKey();
  if (file && !options.refresh) {
    try {
      const cached = JSON.parse(await readFile(file, 'utf8')) as HostBandwidthReading;
      const age = now().getTime() - new Date(cached.measured_at).getTime();
      if (cached.machine === machine && cached.bandwidth_gbs > 0 && age >= 0 && age < BANDWIDTH_MAX_AGE_DAYS * 86_400_000) {
        return { ...cached, cached: true };
      }
    } catch {
      // no cache yet, or not ours: measure
    }
  }
  const probe = await measureHostBandwidth();
  const reading: HostBandwidthReading = { ...probe, machine, measured_at: now().toISOString(), cached: false };
  if (file && dir) {
    const temp = `${file}.${process.pid}.tmp`;
    await mkdir(dir, { recursive: true })
      .then(() => writeFile(temp, `${JSON.stringify({ ...reading, cached: undefined }, null, 2)}\n`))
      .then(() => rename(temp, file))
      .catch(() => undefined);
  }
  return reading;
}

/**
 * The speed benchmark's host-roofline options for a model on this machine: the bandwidth probe (run, or read
 * from the cache, only when the roofline needs it) and this CPU's last-level cache size (a model that fits in
 * it is not bound by DRAM bandwidth).
 */
export async function hostRooflineOptions(
  options: HostBandwidthOptions & { onReading?: (reading: HostBandwidthReading) => void } = {},
): Promise<{ hostBandwidth: () => Promise<number>; hostCacheBytes: number | null }> {
  const { onReading, ...probe } = options;
  return {
    hostBandwidth: async () => {
      const reading = await hostBandwidth(probe);
      onReading?.(reading);
      return reading.bandwidth_gbs;
    },
    hostCacheBytes: await lastLevelCacheBytes(),
  };
}

export function bandwidthLine(reading: HostBandwidthReading): string {
  const how = reading.cached ? `cached ${reading.measured_at.slice(0, 10)}` : `measured in ${reading.elapsed_s.toFixed(2)} s`;
  return `host memory bandwidth ${reading.bandwidth_gbs.toFixed(1)} GB/s (STREAM-like copy, ${reading.threads} thread${reading.threads === 1 ? '' : 's'}, ${how})`;
}

/** True for an endpoint on this machine (127.0.0.0/8, localhost, ::1): its model runs on this host's memory. */
export function isLocalEndpoint(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host === '::1' || /^127\./.test(host) || host === '0.0.0.0';
  } catch {
    return false;
  }
}

export interface ServedEndpoint {
  baseUrl: string;
  providerKind: ProviderKind;
  apiKey?: string | undefined;
}

/** A GGUF found on this machine for a served model. */
export type FoundGguf = { info: GgufInfo; location: GgufLocation };

/** The served model's GGUF when it can be found on this machine (null for a remote endpoint or no match). */
export async function discoverServedGguf(
  model: string,
  roots: ModelRoots,
  endpoint: ServedEndpoint & { hint?: { publisher?: string | null; quantization?: string | null } },
): Promise<FoundGguf | null> {
  if (!isLocalEndpoint(endpoint.baseUrl)) return null;
  return discoverGguf(model, {
    roots,
    providerKind: endpoint.providerKind,
    baseUrl: endpoint.baseUrl,
    ...(endpoint.apiKey ? { apiKey: endpoint.apiKey } : {}),
    ...(endpoint.hint ? { hint: endpoint.hint } : {}),
  });
}

/** Discovery for every model an endpoint lists (local endpoints only), by id. */
export async function discoverServedGgufs(models: readonly Pick<ModelInfo, 'id' | 'quantization'>[], roots: ModelRoots, endpoint: ServedEndpoint): Promise<Map<string, FoundGguf>> {
  const found = new Map<string, FoundGguf>();
  if (!isLocalEndpoint(endpoint.baseUrl)) return found;
  for (const m of models) {
    const hit = await discoverServedGguf(m.id, roots, { ...endpoint, hint: { quantization: m.quantization } });
    if (hit) found.set(m.id, hit);
  }
  return found;
}

/** `1.2 GB`, `350 MB`, `9 KB`; `unknown` for null. */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return 'unknown';
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(0)} MB` : `${(bytes / 1e3).toFixed(0)} KB`;
}

/** `8.0B`, `4.4M`, `33K` parameters. */
export function formatParams(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)}B`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  return `${(n / 1e3).toFixed(0)}K`;
}

/** `1.2 GB · Q4_K_M · 8.0B params · llama · 8 experts (2 active)` for a GGUF. */
export function ggufSummary(info: GgufInfo): string {
  const parts = [formatBytes(info.file_size_bytes)];
  if (info.quantization) parts.push(info.quantization);
  if (info.parameter_count) parts.push(`${formatParams(info.parameter_count)} params`);
  if (info.architecture) parts.push(info.architecture);
  if (info.expert_count) parts.push(`${info.expert_count} experts (${info.expert_used_count ?? '?'} active)`);
  return parts.join(' · ');
}
