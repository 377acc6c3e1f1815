import { startSimEndpoint, type SimEndpoint, type SimModelOptions } from '@crucibleforge/sim-endpoint';
import { afterEach, describe, expect, it } from 'vitest';
import { runSpeedBenchmark, type SpeedBenchmarkOptions } from './benchmark';
import { MEDIAN_METRICS } from './records';

const open: SimEndpoint[] = [];
async function sim(models: SimModelOptions[]): Promise<SimEndpoint> {
  const s = await startSimEndpoint({ models });
  open.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

const fast = { decode_tps: 2000, first_token_base_ms: 5, answer: { content: 'a b c d e f g h i j k l m n o p q r s t u v w x y z' } };

function bench(s: SimEndpoint, extra: Partial<SpeedBenchmarkOptions> = {}) {
  return runSpeedBenchmark({ baseUrl: s.url, model: 'qwen3-8b-q4_k_m', runs: 2, warmup: 1, ...extra });
}

describe('runSpeedBenchmark', () => {
  it('writes the contract: tests with runs and medians, plausibility, formulas', async () => {
    const s = await sim([{ id: 'qwen3-8b-q4_k_m', context_length: 32768, ...fast }]);
    const report = await bench(s, { prompts: ['short', 'long'], bandwidthGbs: 1000 });
    expect(report.tests.map((t) => t.name)).toEqual(['short_50', 'long_800']);
    for (const test of report.tests) {
      expect(test.runs).toHaveLength(2);
      expect(test.warmup_runs).toHaveLength(1);
      expect(Object.keys(test.median).sort()).toEqual([...MEDIAN_METRICS].sort());
      expect(test.median.ttft_s).toBeGreaterThan(0);
      expect(test.median.decode_tps).toBeGreaterThan(0);
      expect(test.median.ttft_reasoning_s).toBeNull(); // no reasoning: does not apply
      const run = test.runs[0]!;
      expect(run).toMatchObject({ ok: true, token_source: 'usage', wrong_model: false, served_model: 'qwen3-8b-q4_k_m' });
      expect(run.ok && run.gaps.n).toBeGreaterThan(0);
    }
    // 2 prompts × (1 warm-up + 2 runs), each with its own nonce at the very start.
    const prompts = s.requests.map((b) => (b.messages as { content: string }[])[0]!.content);
    expect(prompts).toHaveLength(6);
    expect(new Set(prompts.map((p) => p.slice(0, 10))).size).toBe(6);
    for (const p of prompts) expect(p).toMatch(/^\[[0-9a-f]{8}\] /);
    // The sim's 2000 T/s from an 8B Q4_K_M (≈4.6 GB) at 1000 GB/s is above the roofline: flagged.
    expect(report.plausibility.confidence).toBe('SUSPICIOUS');
    expect(report.plausibility.reasons.join(' ')).toMatch(/above the physical limit/);
    expect(report.endpoint.model).toMatchObject({ quantization: 'Q4_K_M', state: 'loaded', max_context: 32768 });
    expect(report.formulas.decode_tps).toMatch(/N_out − N_first/);
    expect(report.ok).toBe(true);
    expect(report.summary.decode_tps).toBeGreaterThan(0);
    // The measured rounds behind the medians (warm-ups left out), each named by its prompt: compare's noise.
    const rounds = report.summary.rounds ?? [];
    expect(rounds.map((r) => r.prompt)).toEqual(report.tests.flatMap((t) => t.runs.map(() => t.name)));
    expect(rounds.map((r) => r.decode_tps)).toEqual(report.tests.flatMap((t) => t.runs.map((r) => (r.ok ? r.decode_tps : null))));
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  it('runs depth and concurrency sweeps; aggregate throughput grows with streams', async () => {
    const s = await sim([{ id: 'qwen3-8b-q4_k_m', ...fast, decode_tps: 1000 }]);
    const report = await bench(s, { prompts: ['medium'], warmup: 0, depths: [256, 1024], concurrency: [1, 3] });
    expect(report.depth_sweep?.map((d) => d.depth_tokens)).toEqual([256, 1024]);
    const [shallow, deep] = report.depth_sweep!;
    expect(deep!.prompt_tokens! / shallow!.prompt_tokens!).toBeCloseTo(4, 0);
    expect(deep!.median.prefill_tps).not.toBeNull();
    const [one, three] = report.concurrency_sweep!;
    expect(one).toMatchObject({ concurrency: 1, requests: 2, failures: 0 });
    expect(three).toMatchObject({ concurrency: 3, requests: 6, failures: 0 });
    expect(three!.aggregate_tps! / one!.aggregate_tps!).toBeGreaterThan(2);
  });

  it('records a failed request, keeps going, and reports ok: false', async () => {
    const s = await sim([{ id: 'qwen3-8b-q4_k_m', ...fast, faults: [undefined, { kind: 'status', status: 500 }] }]);
    const report = await bench(s, { prompts: ['short'], runs: 3 });
    const runs = report.tests[0]!.runs;
    expect(runs.map((r) => r.ok)).toEqual([false, true, true]);
    expect(runs[0]).toMatchObject({ ok: false, error: { code: 'TIMING_HTTP', retryable: true } });
    expect(report.tests[0]!.stats.ttft_s.n).toBe(2);
    expect(report.failures).toBe(1);
    expect(report.ok).toBe(false);
  });

  it('flags a wrong model and measures reasoning medians', async () => {
    const s = await sim([
      { id: 'qwen3-8b-q4_k_m', respond_as: 'tiny-0.5b', ...fast, answer: { reasoning: 'let me think about it', content: 'fine' } },
    ]);
    const report = await bench(s, { prompts: ['short'] });
    expect(report.wrong_model).toBe(true);
    expect(report.ok).toBe(false);
    expect(report.plausibility.confidence).toBe('LOW');
    expect(report.tests[0]!.median.ttft_reasoning_s).not.toBeNull();
    expect(report.tests[0]!.median.ttft_content_s!).toBeGreaterThan(report.tests[0]!.median.ttft_reasoning_s!);
  });

  it('stops at once on a failure no retry can fix', async () => {
    const s = await sim([{ id: 'other' }]);
    await expect(bench(s)).rejects.toMatchObject({ code: 'TIMING_UNKNOWN_MODEL' });
    expect(s.requests).toHaveLength(1);
  });
});
