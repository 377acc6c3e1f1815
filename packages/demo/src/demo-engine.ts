/**
 * The demo's one real measurement: llama.cpp in this process on a GGUF generated on the spot (random
 * weights: its text is gibberish, its speed is real), held to this machine's memory roofline.
 */
import { join } from 'node:path';
import { openGgufEngine, type OpenedEngine } from '@crucibleforge/engine-llamacpp';
import { formatParams, hostBandwidth, lastLevelCacheBytes, runSpeedBenchmark, type SpeedReport } from '@crucibleforge/speed';
import { writeTinyLlama } from '@crucibleforge/speed/testing';

/** 4 layers, 256 wide, F16: 4.4 M parameters, 8.8 MB — big enough to be memory-bound, quick to write and load. */
const DEMO_MODEL = { type: 'F16', embedding: 256, layers: 4, heads: 8, name: 'random-llama' } as const;
export const DEMO_ENGINE_MODEL = 'random-llama';

export interface DemoEngineResult {
  lines: string[];
  report: SpeedReport | null;
}

function f(v: number | null, digits: number): string {
  return v === null ? '—' : v.toFixed(digits);
}

/**
 * Writes the model into `dir`, measures it (short prompt, 1 warm-up + 2 runs, 64 tokens) and says what it
 * found. `cacheDir`: where the host bandwidth probe is cached (the app's user cache dir).
 */
export async function demoEngineSpeed(dir: string, options: { cacheDir?: string | undefined; signal?: AbortSignal | undefined } = {}): Promise<DemoEngineResult> {
  const written = await writeTinyLlama(join(dir, `${DEMO_ENGINE_MODEL}-f16.gguf`), DEMO_MODEL);
  let opened: OpenedEngine;
  try {
    opened = await openGgufEngine({ gguf: written.path, threads: 1, contextSize: 512, model: DEMO_ENGINE_MODEL });
  } catch (error) {
    return { lines: [`  real engine: not measured (${error instanceof Error ? error.message : String(error)})`], report: null };
  }
  try {
    const bandwidth = await hostBandwidth({ cacheDir: options.cacheDir });
    const cacheBytes = await lastLevelCacheBytes();
    const report = await runSpeedBenchmark({
      completer: opened.engine,
      endpointLabel: `in-process:${opened.info.gguf}`,
      metadata: false,
      model: DEMO_ENGINE_MODEL,
      providerKind: 'llamacpp',
      prompts: ['short'],
      runs: 2,
      warmup: 1,
      maxTokens: 64,
      gguf: opened.gguf,
      hostBandwidthGbs: bandwidth.bandwidth_gbs,
      hostCacheBytes: cacheBytes,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const s = report.summary;
    const p = report.plausibility;
    return {
      report,
      lines: [
        `  real engine — llama.cpp in this process (${opened.info.engine}, ${opened.info.threads} thread) on a GGUF generated just now:`,
        `  random weights (${formatParams(written.parameters)} parameters, F16, ${(written.bytes.length / 1e6).toFixed(1)} MB), so its text is gibberish and its speed is real`,
        `  ${DEMO_ENGINE_MODEL.padEnd(12)} TTFT ${f(s.ttft_s, 3)} s · decode ${f(s.decode_tps, 0)} T/s · prefill ${f(s.prefill_tps, 0)} T/s · plausibility ${p.confidence}`,
        `  roofline of this machine: ${bandwidth.bandwidth_gbs.toFixed(1)} GB/s measured (STREAM-like, ${bandwidth.cached ? 'cached' : `${bandwidth.elapsed_s.toFixed(2)} s`}) ÷ ` +
          `${((p.active_weight_bytes ?? 0) / 1e6 + p.kv_bytes_per_token / 1e6).toFixed(1)} MB read per token = ${f(p.roofline_tps, 0)} T/s` +
          `${p.fraction_of_roofline === null ? '' : `; decode reached ${Math.round(p.fraction_of_roofline * 100)} % of it`}`,
        ...(p.cache_resident && cacheBytes
          ? [`  (the model fits this CPU's ${(cacheBytes / 2 ** 20).toFixed(0)} MiB last-level cache, so decode may beat the DRAM roofline: not a hard limit here)`]
          : []),
      ],
    };
  } finally {
    await opened.engine.close();
  }
}
