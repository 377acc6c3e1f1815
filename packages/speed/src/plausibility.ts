/** SUSPICIOUS: faster than the memory roofline allows (the number cannot be what it claims). */
export type Confidence = 'HIGH' | 'MEDIUM' | 'LOW' | 'SUSPICIOUS' | 'UNKNOWN';

export interface GpuSpec {
  name: string;
  /** Advertised memory bandwidth, GB/s. */
  bandwidth_gbs: number;
  aliases: string[];
}

/** Advertised memory bandwidth of common GPUs and APUs (GB/s). */
export const GPU_BANDWIDTH: readonly GpuSpec[] = [
  { name: 'AMD Radeon RX 7900 XTX', bandwidth_gbs: 960, aliases: ['7900xtx', 'rx7900xtx'] },
  { name: 'AMD Radeon RX 7900 XT', bandwidth_gbs: 800, aliases: ['7900xt', 'rx7900xt'] },
  { name: 'AMD Radeon RX 9070 XT', bandwidth_gbs: 640, aliases: ['9070xt', 'rx9070xt'] },
  { name: 'AMD Ryzen AI Max+ 395 (Strix Halo)', bandwidth_gbs: 256, aliases: ['strixhalo', 'ryzenaimax395', 'aimax395', '8060s'] },
  { name: 'NVIDIA GeForce RTX 3060 12GB', bandwidth_gbs: 360, aliases: ['3060', 'rtx3060'] },
  { name: 'NVIDIA GeForce RTX 3080', bandwidth_gbs: 760, aliases: ['3080', 'rtx3080'] },
  { name: 'NVIDIA GeForce RTX 3090', bandwidth_gbs: 936, aliases: ['3090', 'rtx3090'] },
  { name: 'NVIDIA GeForce RTX 3090 Ti', bandwidth_gbs: 1008, aliases: ['3090ti', 'rtx3090ti'] },
  { name: 'NVIDIA GeForce RTX 4080', bandwidth_gbs: 717, aliases: ['4080', 'rtx4080'] },
  { name: 'NVIDIA GeForce RTX 4090', bandwidth_gbs: 1008, aliases: ['4090', 'rtx4090'] },
  { name: 'NVIDIA GeForce RTX 5080', bandwidth_gbs: 960, aliases: ['5080', 'rtx5080'] },
  { name: 'NVIDIA GeForce RTX 5090', bandwidth_gbs: 1792, aliases: ['5090', 'rtx5090'] },
  { name: 'NVIDIA RTX 6000 Ada', bandwidth_gbs: 960, aliases: ['rtx6000ada', '6000ada'] },
  { name: 'NVIDIA L40S', bandwidth_gbs: 864, aliases: ['l40s'] },
  { name: 'NVIDIA A100 80GB', bandwidth_gbs: 2039, aliases: ['a100', 'a10080gb', 'a100sxm'] },
  { name: 'NVIDIA A100 40GB', bandwidth_gbs: 1555, aliases: ['a10040gb', 'a100pcie'] },
  { name: 'NVIDIA H100 SXM', bandwidth_gbs: 3350, aliases: ['h100', 'h100sxm'] },
  { name: 'NVIDIA H100 PCIe', bandwidth_gbs: 2000, aliases: ['h100pcie'] },
  { name: 'NVIDIA H200', bandwidth_gbs: 4800, aliases: ['h200'] },
  { name: 'NVIDIA DGX Spark (GB10)', bandwidth_gbs: 273, aliases: ['dgxspark', 'gb10', 'spark'] },
  { name: 'Apple M1', bandwidth_gbs: 68, aliases: ['m1'] },
  { name: 'Apple M1 Pro', bandwidth_gbs: 200, aliases: ['m1pro'] },
  { name: 'Apple M1 Max', bandwidth_gbs: 400, aliases: ['m1max'] },
  { name: 'Apple M1 Ultra', bandwidth_gbs: 800, aliases: ['m1ultra'] },
  { name: 'Apple M2', bandwidth_gbs: 100, aliases: ['m2'] },
  { name: 'Apple M2 Pro', bandwidth_gbs: 200, aliases: ['m2pro'] },
  { name: 'Apple M2 Max', bandwidth_gbs: 400, aliases: ['m2max'] },
  { name: 'Apple M2 Ultra', bandwidth_gbs: 800, aliases: ['m2ultra'] },
  { name: 'Apple M3', bandwidth_gbs: 100, aliases: ['m3'] },
  { name: 'Apple M3 Pro', bandwidth_gbs: 150, aliases: ['m3pro'] },
  { name: 'Apple M3 Max', bandwidth_gbs: 400, aliases: ['m3max'] },
  { name: 'Apple M3 Ultra', bandwidth_gbs: 819, aliases: ['m3ultra'] },
  { name: 'Apple M4', bandwidth_gbs: 120, aliases: ['m4'] },
  { name: 'Apple M4 Pro', bandwidth_gbs: 273, aliases: ['m4pro'] },
  { name: 'Apple M4 Max', bandwidth_gbs: 546, aliases: ['m4max'] },
];

/** Decode reaches about this share of the advertised bandwidth at best (RTX 3090: ~854 of 936 GB/s). */
export const ACHIEVABLE_SHARE = 0.9;

function squash(text: string): string {
  return text
    .toLowerCase()
    .replace(/\b(nvidia|geforce|amd|radeon|apple|graphics)\b/g, '')
    .replace(/[^a-z0-9+]/g, '')
    .replace(/\+/g, '');
}

/** Looks a GPU/APU up by a loose name ("7900 XTX", "RTX 4090", "m2 max"); null when unknown. */
export function findGpu(name: string): GpuSpec | null {
  const key = squash(name);
  if (key.length === 0) return null;
  return GPU_BANDWIDTH.find((gpu) => squash(gpu.name) === key || gpu.aliases.includes(key)) ?? null;
}

/** Bytes per parameter by quantisation label (metrics.md). */
const BYTES_PER_PARAM: [RegExp, number][] = [
  [/^(F32|FP32)$/, 4],
  [/^(BF16|F16|FP16)$/, 2],
  [/^Q8/, 1.06],
  [/^Q6/, 0.82],
  [/^Q5/, 0.69],
  [/^Q4_K/, 0.58],
  [/^(Q4|IQ4|MXFP4|NVFP4|4BIT|INT4|AWQ|GPTQ)/, 0.5],
  [/^(Q3|IQ3)/, 0.43],
  [/^(Q2|IQ2)/, 0.33],
];

export function bytesPerParam(quantization: string | null | undefined): number | null {
  if (!quantization) return null;
  const label = quantization.toUpperCase().replace(/^MOSTLY_/, '').replace(/[- ]/g, '_');
  return BYTES_PER_PARAM.find(([re]) => re.test(label))?.[1] ?? null;
}

const ACTIVE_RE = /(?<![a-z0-9])a(\d+(?:\.\d+)?)([bm])(?![a-z0-9])/i;
const TOTAL_RE = /(?<![a-z0-9.])(\d+(?:\.\d+)?)([bmt])(?![a-z0-9])/i;

/** "Qwen3-30B-A3B" / "8.0B" / "llama-3.1-8b-instruct" → total and active parameter counts. */
export function parseParamCounts(text: string | null | undefined): { total: number | null; active: number | null } {
  if (!text) return { total: null, active: null };
  const scale = (unit: string) => ({ m: 1e6, b: 1e9, t: 1e12 })[unit.toLowerCase() as 'm' | 'b' | 't'];
  const active = ACTIVE_RE.exec(text);
  const total = TOTAL_RE.exec(text.replace(ACTIVE_RE, ' '));
  return {
    total: total ? Number(total[1]) * scale(total[2]!) : null,
    active: active ? Number(active[1]) * scale(active[2]!) : null,
  };
}

export interface PlausibilityInput {
  /** Measured single-stream decode tokens/s (median). */
  decode_tps: number | null;
  /** Weight bytes read per token, e.g. GgufInfo.active_bytes_per_token (exact). */
  active_weight_bytes?: number | null;
  /** Model size in bytes (a dense model's weights; MoE scaled by experts used ÷ total when known). */
  model_size_bytes?: number | null;
  parameter_count?: number | null;
  active_parameter_count?: number | null;
  quantization?: string | null;
  expert_count?: number | null;
  expert_used_count?: number | null;
  /** Advertised bandwidth in GB/s (overrides the GPU table); decode is held to 90 % of it. */
  bandwidth_gbs?: number | null;
  gpu?: string | null;
  /**
   * This machine's measured memory bandwidth, GB/s (a STREAM-like probe: already what is achievable, so
   * not scaled by 90 %), for a CPU/APU run when neither a GPU nor a bandwidth is named.
   */
  host_bandwidth_gbs?: number | null;
  /**
   * This CPU's last-level cache in bytes (with the host roofline): when everything read per token fits in
   * it, the weights stay in cache and decode is not bound by DRAM bandwidth, so above the roofline is not
   * impossible (MEDIUM, not SUSPICIOUS).
   */
  host_cache_bytes?: number | null;
  /** KV-cache bytes read per token at the measured context depth, when known (default 0). */
  kv_bytes_per_token?: number;
  wrong_model?: boolean;
  /** Extra reasons to show (token counts estimated, usage mismatch, …). */
  notes?: string[];
}

export interface Plausibility {
  confidence: Confidence;
  reasons: string[];
  roofline_tps: number | null;
  /** measured ÷ roofline */
  fraction_of_roofline: number | null;
  /** Achievable bandwidth used (90 % of advertised), GB/s. */
  bandwidth_gbs: number | null;
  bandwidth_source: 'flag' | 'table' | 'measured' | null;
  gpu: string | null;
  active_weight_bytes: number | null;
  weights_source: 'gguf' | 'size' | 'parameters' | null;
  /** KV-cache bytes per token included in the roofline. */
  kv_bytes_per_token: number;
  /** True when the bytes read per token fit the host CPU's last-level cache (the DRAM roofline does not bind). */
  cache_resident: boolean;
}

function weights(input: PlausibilityInput): { bytes: number; source: Plausibility['weights_source']; note: string | null } | null {
  if (input.active_weight_bytes && input.active_weight_bytes > 0) return { bytes: input.active_weight_bytes, source: 'gguf', note: null };
  const share = input.expert_count && input.expert_used_count ? input.expert_used_count / input.expert_count : null;
  const bpp = bytesPerParam(input.quantization);
  if (input.active_parameter_count && bpp) {
    return { bytes: input.active_parameter_count * bpp, source: 'parameters', note: `active weights estimated as ${fmtParams(input.active_parameter_count)} parameters × ${bpp} bytes (${input.quantization})` };
  }
  if (input.model_size_bytes && input.model_size_bytes > 0) {
    if (share !== null) return { bytes: input.model_size_bytes * share, source: 'size', note: 'active weights estimated as model size × experts used ÷ experts' };
    return { bytes: input.model_size_bytes, source: 'size', note: 'active weights taken as the whole model size (dense assumption)' };
  }
  if (input.parameter_count && bpp) {
    const params = input.parameter_count * (share ?? 1);
    return { bytes: params * bpp, source: 'parameters', note: `active weights estimated as ${fmtParams(params)} parameters × ${bpp} bytes (${input.quantization})` };
  }
  return null;
}

function fmtParams(n: number): string {
  return n >= 1e9 ? `${(n / 1e9).toFixed(1)} B` : `${(n / 1e6).toFixed(0)} M`;
}

const pct = (x: number) => `${Math.round(x * 100)} %`;

/** Bytes as GB with two decimals, or MB / KB for the small files a test model has. */
export function formatGigabytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(2)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(2)} MB`;
  return `${(bytes / 1e3).toFixed(2)} KB`;
}

/** Where the bandwidth comes from: a flag, the GPU table, or this host's measurement (already achievable). */
function bandwidthOf(input: PlausibilityInput, gpu: GpuSpec | null): { achievable: number; source: Plausibility['bandwidth_source'] } | null {
  if (input.bandwidth_gbs) return { achievable: input.bandwidth_gbs * ACHIEVABLE_SHARE, source: 'flag' };
  if (gpu) return { achievable: gpu.bandwidth_gbs * ACHIEVABLE_SHARE, source: 'table' };
  if (!input.gpu && input.host_bandwidth_gbs && input.host_bandwidth_gbs > 0) return { achievable: input.host_bandwidth_gbs, source: 'measured' };
  return null;
}

/**
 * Holds a measured decode speed against the memory-bandwidth roofline: achievable bandwidth (90 % of
 * an advertised one, or this host's measured copy bandwidth) ÷ bytes read per token (active weights plus
 * the KV cache at the context depth). Above 100 % → SUSPICIOUS (speculative decoding, a warm cache, wrong
 * token counts or a smaller model), except MEDIUM on the host roofline when all of it fits the CPU's
 * last-level cache; below 15 % → LOW on a GPU (CPU fallback, partial offload), MEDIUM on
 * the host roofline (compute- or overhead-bound); 15–30 % or 90–100 % → MEDIUM; otherwise HIGH.
 * Estimated weights cap the result at MEDIUM.
 */
export function assessPlausibility(input: PlausibilityInput): Plausibility {
  const reasons: string[] = [...(input.notes ?? [])];
  const gpu = input.gpu ? findGpu(input.gpu) : null;
  const bw = bandwidthOf(input, gpu);
  const w = weights(input);
  const kv = Math.max(0, input.kv_bytes_per_token ?? 0);
  const base: Plausibility = {
    confidence: 'UNKNOWN',
    reasons,
    roofline_tps: null,
    fraction_of_roofline: null,
    bandwidth_gbs: bw?.achievable ?? null,
    bandwidth_source: bw?.source ?? null,
    gpu: gpu?.name ?? null,
    active_weight_bytes: w ? Math.round(w.bytes) : null,
    weights_source: w?.source ?? null,
    kv_bytes_per_token: Math.round(kv),
    cache_resident: false,
  };
  if (input.gpu && !gpu && !input.bandwidth_gbs) reasons.push(`unknown GPU "${input.gpu}": pass --bandwidth-gbs`);
  if (input.wrong_model) reasons.push('the server answered as a different model than requested');
  if (input.decode_tps === null || !(input.decode_tps > 0)) {
    reasons.push('no decode speed was measured');
    return { ...base, confidence: input.wrong_model ? 'LOW' : 'UNKNOWN' };
  }
  if (!bw) reasons.push('memory bandwidth unknown (name a GPU or pass --bandwidth-gbs)');
  if (!w) reasons.push('model weight size unknown (pass --gguf or use a server that reports it)');
  if (!bw || !w) return { ...base, confidence: input.wrong_model ? 'LOW' : 'UNKNOWN' };

  const host = bw.source === 'measured';
  const achievable = bw.achievable * 1e9;
  const perToken = w.bytes + kv;
  const roofline = achievable / perToken;
  const fraction = input.decode_tps / roofline;
  const what = kv > 0 ? `${formatGigabytes(perToken)} per token (weights ${formatGigabytes(w.bytes)} + KV cache ${formatGigabytes(kv)})` : `${formatGigabytes(w.bytes)} per token`;
  const source = host ? ' measured on this host' : '';
  const head = `${input.decode_tps.toFixed(1)} T/s is ${pct(fraction)} of the roofline ${roofline.toFixed(1)} T/s (${(achievable / 1e9).toFixed(host ? 1 : 0)} GB/s${source} ÷ ${what})`;
  const cache = host && input.host_cache_bytes && input.host_cache_bytes > 0 ? input.host_cache_bytes : null;
  const resident = cache !== null && perToken <= cache;
  let confidence: Confidence;
  if (fraction > 1 && resident) {
    confidence = 'MEDIUM';
    reasons.push(
      `${head}: above the memory roofline, but the ${formatGigabytes(perToken)} read per token fit this CPU's ${formatGigabytes(cache)} last-level cache, so DRAM bandwidth does not bound it (a model this small stays in cache)`,
    );
  } else if (fraction > 1) {
    confidence = 'SUSPICIOUS';
    reasons.push(`${head}: above the physical limit — speculative decoding/MTP, a warm cache, wrong token counts or a smaller model served${host ? '; or a GPU serves it (name it with --gpu)' : ''}`);
  } else if (fraction < 0.15) {
    confidence = host ? 'MEDIUM' : 'LOW';
    reasons.push(host ? `${head}: far below the memory limit — compute- or overhead-bound (few threads, a small model)` : `${head}: below 15 % — CPU fallback, partial offload or throttling`);
  } else if (fraction < 0.3) {
    confidence = 'MEDIUM';
    reasons.push(host ? `${head}: low for memory-bound decoding on this host (few threads?)` : `${head}: low for a model held in GPU memory (partial offload? a slow backend?)`);
  } else if (fraction > 0.9) {
    confidence = 'MEDIUM';
    reasons.push(`${head}: very close to the limit (well-tuned decoding reaches 65–90 %)`);
  } else {
    confidence = 'HIGH';
    reasons.push(`${head}: within what memory-bound decoding reaches`);
  }
  if (w.note) {
    reasons.push(w.note);
    if (confidence === 'HIGH') confidence = 'MEDIUM';
  }
  if (input.wrong_model) confidence = 'LOW';
  return { ...base, confidence, roofline_tps: roofline, fraction_of_roofline: fraction, cache_resident: resident };
}
