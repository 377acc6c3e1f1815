import { median, sameModel, systemClock, type ChatRequest, type RandomSource, type ReasoningMode, type SpeedSummary } from '@crucibleforge/core';
import {
  createTimedCompleter,
  FATAL_TIMING_CODES,
  listModelMetadata,
  type EndpointOptions,
  type ModelInfo,
  type ModelMetadata,
  type ProviderKind,
  type TimedCompleter,
} from '@crucibleforge/timing';
import pLimit from 'p-limit';
import { speedError } from './errors';
import { FORMULAS, IN_PROCESS_FORMULAS, type Formulas } from './formulas';
import type { GgufInfo } from './gguf';
import { assessPlausibility, parseParamCounts, type Plausibility } from './plausibility';
import { depthPrompt, makeNonce, SPEED_PROMPTS, withNonce, type SpeedPromptKey, type SpeedPromptName } from './prompts';
import { failedRecord, mediansOf, okRecord, okRuns, statsOf, type MedianMetrics, type RunRecord, type StatMetric } from './records';
import { summarize, type MetricStats } from './stats';

/** How much to measure: the `speed` command's defaults; a benchmark run measures less ({@link RUN_SPEED_SETTINGS}). */
export interface SpeedSettings {
  /** Measured rounds per prompt (default 3). */
  runs?: number;
  /** Warm-up rounds before the measured ones (default 1; a cold load is not TTFT). */
  warmup?: number;
  prompts?: SpeedPromptKey[];
  /** Context-depth sweep, prompt tokens (e.g. 1024, 4096, 16384). */
  depths?: number[];
  /** Concurrency sweep, streams (e.g. 1, 2, 4, 8). */
  concurrency?: number[];
  /** Output cap per request (default 256). */
  maxTokens?: number;
  temperature?: number;
  reasoning?: ReasoningMode;
  /** Advertised memory bandwidth, GB/s (overrides `gpu`), for the roofline. */
  bandwidthGbs?: number | null;
  /** The GPU/APU serving the model, for the roofline (e.g. "RX 7900 XTX"). */
  gpu?: string | null;
  /** This host's measured memory bandwidth, GB/s: the roofline of a CPU/APU run when no GPU is named. */
  hostBandwidthGbs?: number | null;
  /** This CPU's last-level cache, bytes: a model that fits in it may beat the host roofline (MEDIUM, not SUSPICIOUS). */
  hostCacheBytes?: number | null;
  /**
   * Measures (or reads) the host's bandwidth only when the roofline needs it: no GPU or bandwidth named,
   * the weights known. For a model on this machine (in process, or a loopback server).
   */
  hostBandwidth?: () => Promise<number | null>;
  /** The model's GGUF file as read by readGgufInfo (exact active weights per token). */
  gguf?: GgufInfo | null;
}

/** What `run`, `all` and the GUI measure per model before its cases: every prompt, fewer and shorter rounds than `speed`. */
export const RUN_SPEED_SETTINGS: Readonly<SpeedSettings> = Object.freeze({ runs: 2, warmup: 1, maxTokens: 128 });

/**
 * How many requests a benchmark with these settings sends and the longest prompt (characters), for a
 * cost bound before anything is sent.
 */
export function speedRequestPlan(settings: SpeedSettings): { requests: number; max_prompt_chars: number } {
  const prompts = SPEED_PROMPTS.filter((p) => (settings.prompts ?? ['short', 'medium', 'long']).includes(p.key));
  const runs = settings.runs ?? 3;
  const rounds = prompts.length * ((settings.warmup ?? 1) + runs);
  const depths = settings.depths ?? [];
  const concurrency = (settings.concurrency ?? []).reduce((n, streams) => n + streams * Math.max(1, runs), 0);
  const longest = Math.max(0, ...prompts.map((p) => withNonce(p.text, '00000000').length), ...depths.map((d) => d * 4));
  return { requests: rounds + depths.length * runs + concurrency, max_prompt_chars: longest };
}

export interface SpeedBenchmarkOptions extends SpeedSettings, Omit<EndpointOptions, 'baseUrl'> {
  /**
   * The model to measure through: any {@link TimedCompleter} (the runner passes its own client; an in-process
   * engine works too). Default: the HTTP client on `baseUrl`.
   */
  completer?: TimedCompleter;
  /** The endpoint (needed without a completer; also where metadata is asked and what the report names). */
  baseUrl?: string;
  /** What the report names as the endpoint when there is no `baseUrl` (e.g. `in-process:/models/x.gguf`). */
  endpointLabel?: string;
  random?: RandomSource;
  /** Wall clock for started_at / finished_at. */
  now?: () => Date;
  /** Model metadata: asked from `baseUrl` (default true), not asked (false), or already known. */
  metadata?: boolean | ModelMetadata;
  extraBody?: Record<string, unknown>;
  signal?: AbortSignal;
  onEvent?: (event: SpeedEvent) => void;
}

/** Progress of a speed benchmark: one measured (or failed) request. */
export interface SpeedEvent {
  type: 'request-measured';
  phase: 'warmup' | 'test' | 'depth' | 'concurrency';
  label: string;
  run: RunRecord;
}

export interface SpeedTestResult {
  name: SpeedPromptName;
  prompt_chars: number;
  runs: RunRecord[];
  warmup_runs: RunRecord[];
  median: MedianMetrics;
  stats: Record<StatMetric, MetricStats>;
}

export interface DepthPoint {
  depth_tokens: number;
  prompt_tokens: number | null;
  runs: RunRecord[];
  median: MedianMetrics;
}

export interface ConcurrencyPoint {
  concurrency: number;
  requests: number;
  failures: number;
  per_stream_decode_tps: MetricStats;
  ttft_s: MetricStats;
  aggregate_tps: number | null;
  window_s: number;
  runs: RunRecord[];
}

/** The JSON the `speed` command writes (the CLI contract). */
export interface SpeedReport {
  schema_version: 1;
  kind: 'speed';
  model: string;
  base_url: string;
  provider_kind: ProviderKind;
  started_at: string;
  finished_at: string;
  settings: {
    runs: number;
    warmup: number;
    prompts: SpeedPromptName[];
    depths: number[];
    concurrency: number[];
    max_tokens: number;
    reasoning: ReasoningMode;
  };
  endpoint: { sources: string[]; model: ModelInfo | null };
  gguf: GgufInfo | null;
  tests: SpeedTestResult[];
  depth_sweep: DepthPoint[] | null;
  concurrency_sweep: ConcurrencyPoint[] | null;
  plausibility: Plausibility;
  formulas: Formulas;
  summary: SpeedSummary;
  failures: number;
  wrong_model: boolean;
  /** No request failed, every response named the requested model, and something was measured. */
  ok: boolean;
  warnings: string[];
}

/** The base URL without user info (never put credentials in a report). */
function publicUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}

const QUANT_RE = /(?<![a-z0-9])(iq\d_[a-z]+|q\d_k_[sml]|q\d_k|q\d_\d|bf16|f16|fp16|mxfp4|[48]bit)(?![a-z0-9])/i;

function plausibilityFor(options: SpeedBenchmarkOptions, info: ModelInfo | null, runs: RunRecord[], hostGbs: number | null): Plausibility {
  const ok = okRuns(runs);
  const gguf = options.gguf ?? null;
  const fromName = parseParamCounts(options.model);
  const notes: string[] = [];
  if (ok.some((r) => r.token_source === 'estimate')) notes.push('token counts are client estimates (the server sent no usage)');
  if (ok.some((r) => r.usage_mismatch)) notes.push('reported token counts disagree with the client estimate by more than 10 %');
  if (ok.some((r) => r.server_mismatch)) notes.push('server-reported timings disagree with the client by more than 20 %');
  if (ok.some((r) => (r.cached_tokens ?? 0) > 0)) notes.push('some prompt tokens came from the server cache');
  // A decoded token reads the KV cache of everything before it: the prompt plus half the reply on average.
  const depth = median(ok.map((r) => (r.prompt_tokens === null ? null : r.prompt_tokens + (r.completion_tokens ?? 0) / 2)));
  const kvPerPosition = gguf?.kv_bytes_per_position ?? null;
  return assessPlausibility({
    decode_tps: median(ok.map((r) => r.decode_tps)),
    active_weight_bytes: gguf?.active_bytes_per_token ?? null,
    model_size_bytes: info?.size_bytes ?? null,
    parameter_count: gguf?.parameter_count ?? info?.parameter_count ?? parseParamCounts(info?.parameter_size).total ?? fromName.total,
    active_parameter_count: gguf ? null : fromName.active,
    quantization: gguf?.quantization ?? info?.quantization ?? QUANT_RE.exec(options.model)?.[1] ?? null,
    expert_count: gguf?.expert_count ?? info?.expert_count ?? null,
    expert_used_count: gguf?.expert_used_count ?? info?.expert_used_count ?? null,
    bandwidth_gbs: options.bandwidthGbs ?? null,
    gpu: options.gpu ?? null,
    host_bandwidth_gbs: hostGbs,
    host_cache_bytes: options.hostCacheBytes ?? null,
    ...(kvPerPosition !== null && depth !== null ? { kv_bytes_per_token: kvPerPosition * depth } : {}),
    wrong_model: ok.some((r) => r.wrong_model),
    notes,
  });
}

function httpCompleter(options: SpeedBenchmarkOptions, clock: NonNullable<EndpointOptions['clock']>): TimedCompleter {
  if (!options.baseUrl) throw speedError('SPEED_BAD_OPTIONS', 'runSpeedBenchmark: give a completer or a baseUrl');
  return createTimedCompleter({
    baseUrl: options.baseUrl,
    model: options.model,
    providerKind: options.providerKind ?? 'generic',
    clock,
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    ...(options.extraBody ? { extraBody: options.extraBody } : {}),
  });
}

async function metadataOf(options: SpeedBenchmarkOptions): Promise<ModelMetadata | null> {
  if (typeof options.metadata === 'object') return options.metadata;
  if (options.metadata === false || !options.baseUrl) return null;
  return listModelMetadata(options.baseUrl, { ...(options.fetch ? { fetch: options.fetch } : {}), ...(options.apiKey ? { apiKey: options.apiKey } : {}), model: options.model });
}

/**
 * The speed benchmark: per prompt, warm-up rounds then N measured rounds (each with a fresh nonce),
 * optional depth and concurrency sweeps, endpoint metadata and the roofline check. Requests go
 * through the completer (by default the HTTP client with the injected fetch and clock). Throws only for failures no later request
 * can fix (unreachable, key rejected, unknown model, not SSE, connect timeout, cancelled); every
 * other failed request is recorded in its run and counted in `failures`.
 */
export async function runSpeedBenchmark(options: SpeedBenchmarkOptions): Promise<SpeedReport> {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const now = options.now ?? (() => new Date());
  const runs = options.runs ?? 3;
  const warmup = options.warmup ?? 1;
  const maxTokens = options.maxTokens ?? 256;
  const reasoning = options.reasoning ?? 'auto';
  const providerKind = options.providerKind ?? 'generic';
  const chosen = SPEED_PROMPTS.filter((p) => (options.prompts ?? ['short', 'medium', 'long']).includes(p.key));
  const startedAt = now().toISOString();
  const warnings: string[] = [];
  const completer = options.completer ?? httpCompleter(options, clock);
  const meta = await metadataOf(options);
  const sources = meta?.sources ?? [];
  const info = meta?.models.find((m) => m.id === options.model) ?? meta?.models.find((m) => sameModel(options.model, m.id)) ?? null;

  const request = (text: string): ChatRequest => ({
    messages: [{ role: 'user', content: text }],
    max_tokens: maxTokens,
    prompt_cache: false,
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(reasoning === 'auto' ? {} : { reasoning }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const once = async (text: string, index: number, isWarmup: boolean): Promise<RunRecord> => {
    try {
      return okRecord(index, isWarmup, await completer.completeTimed(request(text)));
    } catch (error) {
      const record = failedRecord(index, isWarmup, error);
      if ((FATAL_TIMING_CODES as readonly string[]).includes(record.error.code) || options.signal?.aborted) throw error;
      return record;
    }
  };
  const report = (phase: SpeedEvent['phase'], label: string, run: RunRecord) => {
    options.onEvent?.({ type: 'request-measured', phase, label, run });
    return run;
  };

  const tests: SpeedTestResult[] = [];
  for (const prompt of chosen) {
    const warmupRuns: RunRecord[] = [];
    for (let i = 0; i < warmup; i++) {
      warmupRuns.push(report('warmup', prompt.name, await once(withNonce(prompt.text, makeNonce(random)), i, true)));
    }
    const measured: RunRecord[] = [];
    for (let i = 0; i < runs; i++) {
      measured.push(report('test', prompt.name, await once(withNonce(prompt.text, makeNonce(random)), i, false)));
    }
    tests.push({
      name: prompt.name,
      prompt_chars: withNonce(prompt.text, '00000000').length,
      runs: measured,
      warmup_runs: warmupRuns,
      median: mediansOf(measured),
      stats: statsOf(measured),
    });
  }

  let depthSweep: DepthPoint[] | null = null;
  if (options.depths && options.depths.length > 0) {
    depthSweep = [];
    for (const depth of options.depths) {
      const depthRuns: RunRecord[] = [];
      for (let i = 0; i < runs; i++) {
        depthRuns.push(report('depth', `depth ${depth}`, await once(depthPrompt(depth, makeNonce(random)), i, false)));
      }
      depthSweep.push({
        depth_tokens: depth,
        prompt_tokens: median(okRuns(depthRuns).map((r) => r.prompt_tokens)),
        runs: depthRuns,
        median: mediansOf(depthRuns),
      });
    }
  }

  let concurrencySweep: ConcurrencyPoint[] | null = null;
  if (options.concurrency && options.concurrency.length > 0) {
    concurrencySweep = [];
    const medium = SPEED_PROMPTS.find((p) => p.key === 'medium')!;
    for (const streams of options.concurrency) {
      const limit = pLimit(streams);
      const total = streams * Math.max(1, runs);
      const start = clock.now();
      const levelRuns = await Promise.all(
        Array.from({ length: total }, (_, i) =>
          limit(async () => report('concurrency', `${streams} streams`, await once(withNonce(medium.text, makeNonce(random)), i, false))),
        ),
      );
      const windowS = (clock.now() - start) / 1000;
      const ok = okRuns(levelRuns);
      const tokens = ok.reduce((sum, r) => sum + (r.completion_tokens ?? 0), 0);
      concurrencySweep.push({
        concurrency: streams,
        requests: total,
        failures: levelRuns.length - ok.length,
        per_stream_decode_tps: summarize(ok.map((r) => r.decode_tps)),
        ttft_s: summarize(ok.map((r) => r.ttft_s)),
        aggregate_tps: windowS > 0 && ok.length > 0 ? tokens / windowS : null,
        window_s: windowS,
        runs: levelRuns,
      });
    }
  }

  const allRuns = [
    ...tests.flatMap((t) => t.runs),
    ...(depthSweep ?? []).flatMap((d) => d.runs),
    ...(concurrencySweep ?? []).flatMap((c) => c.runs),
  ];
  const singleStream = tests.flatMap((t) => t.runs);
  const failures = allRuns.filter((r) => !r.ok).length;
  const wrongModel = okRuns(allRuns).some((r) => r.wrong_model);
  if (wrongModel) {
    const served = okRuns(allRuns).find((r) => r.wrong_model)?.served_model;
    warnings.push(`the endpoint answered as "${served}" instead of "${options.model}" (wrong-model guard)`);
  }
  if (failures > 0) warnings.push(`${failures} of ${allRuns.length} measured requests failed`);
  let plausibility = plausibilityFor(options, info, singleStream, options.hostBandwidthGbs ?? null);
  if (plausibility.bandwidth_source === null && plausibility.weights_source !== null && !options.gpu && options.hostBandwidth) {
    const gbs = await options.hostBandwidth();
    if (gbs) plausibility = plausibilityFor(options, info, singleStream, gbs);
  }
  const okSingle = okRuns(singleStream);
  return {
    schema_version: 1,
    kind: 'speed',
    model: options.model,
    base_url: options.baseUrl ? publicUrl(options.baseUrl) : (options.endpointLabel ?? 'in-process'),
    provider_kind: providerKind,
    started_at: startedAt,
    finished_at: now().toISOString(),
    settings: {
      runs,
      warmup,
      prompts: chosen.map((p) => p.name),
      depths: options.depths ?? [],
      concurrency: options.concurrency ?? [],
      max_tokens: maxTokens,
      reasoning,
    },
    endpoint: { sources, model: info },
    gguf: options.gguf ?? null,
    tests,
    depth_sweep: depthSweep,
    concurrency_sweep: concurrencySweep,
    plausibility,
    formulas: completer.transport === 'in-process' ? IN_PROCESS_FORMULAS : FORMULAS,
    summary: {
      model: options.model,
      ttft_s: median(okSingle.map((r) => r.ttft_s)),
      decode_tps: median(okSingle.map((r) => r.decode_tps)),
      prefill_tps: median(okSingle.map((r) => r.prefill_tps)),
      plausibility: { confidence: plausibility.confidence, reasons: plausibility.reasons },
      rounds: tests.flatMap((t) =>
        okRuns(t.runs).map((r) => ({ prompt: t.name, ttft_s: r.ttft_s, decode_tps: r.decode_tps, prefill_tps: r.prefill_tps })),
      ),
    },
    failures,
    wrong_model: wrongModel,
    ok: failures === 0 && !wrongModel && okRuns(allRuns).length > 0,
    warnings,
  };
}
