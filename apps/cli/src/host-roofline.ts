/**
 * What the roofline knows about this machine and a model's file, for `speed`, `bench-llm`, `models` and the
 * demo: the host's memory bandwidth (a STREAM-like probe, cached on disk) and the served model's GGUF
 * (discovered in LM Studio / Ollama folders or from llama.cpp's /props).
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { cpus, hostname, totalmem } from 'node:os';
import { join } from 'node:path';
import {
  defaultModelRoots,
  discoverGguf,
  lastLevelCacheBytes,
  measureHostBandwidth,
  type GgufInfo,
  type GgufLocation,
  type HostBandwidth,
  type ModelInfo,
  type ModelRoots,
  type ProviderKind,
} from '@crucibleforge/timing';
import { formatBytes } from './bench-llm-render';
import type { CliIO } from './io';
import { userCacheDir } from './user-dirs';

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

function machineKey(): string {
  const cpu = cpus();
  return `${hostname()} · ${cpu[0]?.model.trim() ?? 'unknown CPU'} × ${cpu.length} · ${Math.round(totalmem() / 2 ** 30)} GiB`;
}

/**
 * This host's memory bandwidth: the cached probe when it is recent and from this machine, else a new
 * measurement (about half a second) written to `~/.cache/crucibleforge/host-bandwidth.json`. A cache that
 * cannot be read or written is not an error: the probe just runs.
 */
export async function hostBandwidth(io: CliIO, options: { refresh?: boolean; now?: () => Date } = {}): Promise<HostBandwidthReading> {
  const now = options.now ?? (() => new Date());
  const dir = userCacheDir(io.env);
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
  io: CliIO,
  options: { refresh?: boolean; onReading?: (reading: HostBandwidthReading) => void } = {},
): Promise<{ hostBandwidth: () => Promise<number>; hostCacheBytes: number | null }> {
  return {
    hostBandwidth: async () => {
      const reading = await hostBandwidth(io, options.refresh ? { refresh: true } : {});
      options.onReading?.(reading);
      return reading.bandwidth_gbs;
    },
    hostCacheBytes: await lastLevelCacheBytes(),
  };
}

export function bandwidthLine(reading: HostBandwidthReading): string {
  const how = reading.cached ? `cached ${reading.measured_at.slice(0, 10)}` : `measured in ${reading.elapsed_s.toFixed(2)} s`;
  return `host memory bandwidth ${reading.bandwidth_gbs.toFixed(1)} GB/s (STREAM-like copy, ${reading.threads} thread${reading.threads === 1 ? '' : 's'}, ${how})`;
}

/** The model folders to search: HOME and OLLAMA_MODELS come from the app's environment. */
export function modelRoots(io: CliIO): Promise<ModelRoots> {
  return defaultModelRoots({ home: io.env['HOME'], ollamaModels: io.env['OLLAMA_MODELS'] });
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

/** The served model's GGUF when it can be found on this machine (null for a remote endpoint or no match). */
export async function discoverServedGguf(
  io: CliIO,
  model: string,
  endpoint: { baseUrl: string; providerKind: ProviderKind; apiKey?: string | undefined; hint?: { publisher?: string | null; quantization?: string | null } },
): Promise<{ info: GgufInfo; location: GgufLocation } | null> {
  if (!isLocalEndpoint(endpoint.baseUrl)) return null;
  return discoverGguf(model, {
    roots: await modelRoots(io),
    providerKind: endpoint.providerKind,
    baseUrl: endpoint.baseUrl,
    ...(endpoint.apiKey ? { apiKey: endpoint.apiKey } : {}),
    ...(endpoint.hint ? { hint: endpoint.hint } : {}),
  });
}

/** Discovery for every model an endpoint lists (local endpoints only), by id. */
export async function discoverAll(
  io: CliIO,
  models: readonly ModelInfo[],
  endpoint: { baseUrl: string; providerKind: ProviderKind; apiKey?: string | undefined },
): Promise<Map<string, { info: GgufInfo; location: GgufLocation }>> {
  const found = new Map<string, { info: GgufInfo; location: GgufLocation }>();
  for (const m of models) {
    const hit = await discoverServedGguf(io, m.id, { ...endpoint, hint: { quantization: m.quantization } });
    if (hit) found.set(m.id, hit);
  }
  return found;
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

export function formatParams(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)}B`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  return `${(n / 1e3).toFixed(0)}K`;
}
