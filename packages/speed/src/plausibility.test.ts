import { describe, expect, it } from 'vitest';
import { assessPlausibility, bytesPerParam, findGpu, parseParamCounts } from './plausibility';

describe('assessPlausibility', () => {
  it('flags the seed example: a 30 GB model claiming 200 T/s on a 7900 XTX', () => {
    const p = assessPlausibility({ decode_tps: 200, active_weight_bytes: 30e9, gpu: 'RX 7900 XTX' });
    expect(p.confidence).toBe('SUSPICIOUS');
    expect(p.bandwidth_gbs).toBeCloseTo(864, 6);
    expect(p.roofline_tps).toBeCloseTo(28.8, 6);
    expect(p.fraction_of_roofline).toBeCloseTo(6.94, 2);
    expect(p.reasons.join(' ')).toMatch(/694 %.*speculative decoding/);
  });

  it('rates the worked example (7B Q4_K_M, 4.68 GB, 119 T/s on ~800 GB/s) HIGH', () => {
    const p = assessPlausibility({ decode_tps: 119, active_weight_bytes: 4.68e9, bandwidth_gbs: 800 });
    expect(p.bandwidth_source).toBe('flag');
    expect(p.confidence).toBe('HIGH');
    expect(p.fraction_of_roofline!).toBeGreaterThan(0.65);
    expect(p.fraction_of_roofline!).toBeLessThan(0.9);
  });

  it('calls a very slow result CPU fallback', () => {
    const p = assessPlausibility({ decode_tps: 2, active_weight_bytes: 4.68e9, gpu: 'rtx 4090' });
    expect(p.confidence).toBe('LOW');
    expect(p.reasons.join(' ')).toMatch(/CPU fallback/);
  });

  it('uses active experts for an MoE named A3B, not the full size, and caps estimates at MEDIUM', () => {
    const counts = parseParamCounts('Qwen3-30B-A3B-Instruct');
    const p = assessPlausibility({ decode_tps: 150, active_parameter_count: counts.active, quantization: 'Q4_K_M', gpu: '7900xtx' });
    expect(p.weights_source).toBe('parameters');
    expect(p.active_weight_bytes).toBe(Math.round(3e9 * 0.58));
    expect(p.confidence).toBe('MEDIUM');
    const wrong = assessPlausibility({ decode_tps: 150, model_size_bytes: 18e9, gpu: '7900xtx' });
    expect(wrong.confidence).toBe('SUSPICIOUS'); // dividing by the whole size puts 150 T/s above the roofline
  });

  it('is UNKNOWN without bandwidth or weights, and LOW for a wrong model', () => {
    expect(assessPlausibility({ decode_tps: 50, active_weight_bytes: 4e9 }).confidence).toBe('UNKNOWN');
    expect(assessPlausibility({ decode_tps: 50, gpu: '4090' }).confidence).toBe('UNKNOWN');
    expect(assessPlausibility({ decode_tps: null, gpu: '4090', active_weight_bytes: 1e9 }).confidence).toBe('UNKNOWN');
    const wrong = assessPlausibility({ decode_tps: 50, active_weight_bytes: 4e9, gpu: '4090', wrong_model: true });
    expect(wrong.confidence).toBe('LOW');
  });
});

describe('the host roofline (measured bandwidth, CPU/APU runs)', () => {
  it('is never UNKNOWN when the GGUF and the host bandwidth are known; SUSPICIOUS above the ceiling, with the numbers', () => {
    const ok = assessPlausibility({ decode_tps: 10, active_weight_bytes: 1e9, host_bandwidth_gbs: 20 });
    expect(ok).toMatchObject({ confidence: 'HIGH', bandwidth_source: 'measured', bandwidth_gbs: 20, roofline_tps: 20 });
    const fast = assessPlausibility({ decode_tps: 50, active_weight_bytes: 1e9, host_bandwidth_gbs: 20 });
    expect(fast.confidence).toBe('SUSPICIOUS');
    expect(fast.reasons.join(' ')).toContain('50.0 T/s is 250 % of the roofline 20.0 T/s (20.0 GB/s measured on this host ÷ 1.00 GB per token)');
    const slow = assessPlausibility({ decode_tps: 1, active_weight_bytes: 1e9, host_bandwidth_gbs: 20 });
    expect(slow.confidence).toBe('MEDIUM');
    expect(slow.reasons.join(' ')).toMatch(/compute- or overhead-bound/);
  });

  it('above the roofline is MEDIUM, not SUSPICIOUS, when everything read per token fits the CPU cache', () => {
    const small = { decode_tps: 500, active_weight_bytes: 8e6, kv_bytes_per_token: 1e6, host_bandwidth_gbs: 3.6 };
    const fits = assessPlausibility({ ...small, host_cache_bytes: 32 * 2 ** 20 });
    expect(fits).toMatchObject({ confidence: 'MEDIUM', cache_resident: true, roofline_tps: 400 });
    expect(fits.reasons.join(' ')).toContain("the 9.00 MB read per token fit this CPU's 33.55 MB last-level cache");
    // Without the cache size, or when the model does not fit, the same speed is impossible.
    expect(assessPlausibility(small)).toMatchObject({ confidence: 'SUSPICIOUS', cache_resident: false });
    expect(assessPlausibility({ ...small, host_cache_bytes: 4 * 2 ** 20 })).toMatchObject({ confidence: 'SUSPICIOUS', cache_resident: false });
    // A GPU's roofline is not relaxed by the host CPU's cache.
    expect(assessPlausibility({ ...small, decode_tps: 1e6, host_cache_bytes: 32 * 2 ** 20, gpu: '4090' }).confidence).toBe('SUSPICIOUS');
    // Below the roofline the cache changes nothing.
    expect(assessPlausibility({ ...small, decode_tps: 200, host_cache_bytes: 32 * 2 ** 20 })).toMatchObject({ confidence: 'HIGH', cache_resident: true });
  });

  it('adds the KV cache read at the context depth to the bytes per token', () => {
    const p = assessPlausibility({ decode_tps: 10, active_weight_bytes: 1e9, kv_bytes_per_token: 1e9, host_bandwidth_gbs: 20 });
    expect(p.roofline_tps).toBeCloseTo(10, 9);
    expect(p.kv_bytes_per_token).toBe(1e9);
    expect(p.reasons.join(' ')).toMatch(/2\.00 GB per token \(weights 1\.00 GB \+ KV cache 1\.00 GB\)/);
  });

  it('a named GPU or a bandwidth flag wins over the host measurement', () => {
    expect(assessPlausibility({ decode_tps: 10, active_weight_bytes: 1e9, host_bandwidth_gbs: 20, gpu: '4090' }).bandwidth_source).toBe('table');
    expect(assessPlausibility({ decode_tps: 10, active_weight_bytes: 1e9, host_bandwidth_gbs: 20, bandwidth_gbs: 100 }).bandwidth_source).toBe('flag');
    // An unknown GPU name is not silently replaced by the host's bandwidth.
    expect(assessPlausibility({ decode_tps: 10, active_weight_bytes: 1e9, host_bandwidth_gbs: 20, gpu: 'potato' }).confidence).toBe('UNKNOWN');
  });
});

describe('tables and parsers', () => {
  it('finds GPUs by loose names', () => {
    expect(findGpu('AMD Radeon RX 7900 XTX')?.bandwidth_gbs).toBe(960);
    expect(findGpu('7900xtx')?.bandwidth_gbs).toBe(960);
    expect(findGpu('RTX 3090')?.bandwidth_gbs).toBe(936);
    expect(findGpu('rtx-5090')?.bandwidth_gbs).toBe(1792);
    expect(findGpu('NVIDIA H100')?.bandwidth_gbs).toBe(3350);
    expect(findGpu('A100')?.bandwidth_gbs).toBe(2039);
    expect(findGpu('Apple M2 Max')?.bandwidth_gbs).toBe(400);
    expect(findGpu('potato')).toBeNull();
  });

  it('knows bytes per parameter by quantisation', () => {
    expect(bytesPerParam('Q8_0')).toBe(1.06);
    expect(bytesPerParam('Q4_K_M')).toBe(0.58);
    expect(bytesPerParam('BF16')).toBe(2);
    expect(bytesPerParam('MOSTLY_Q6_K')).toBe(0.82);
    expect(bytesPerParam('weird')).toBeNull();
  });

  it('parses parameter counts from names', () => {
    expect(parseParamCounts('Qwen3-235B-A22B')).toEqual({ total: 235e9, active: 22e9 });
    expect(parseParamCounts('llama-3.1-8b-instruct')).toEqual({ total: 8e9, active: null });
    expect(parseParamCounts('8.0B')).toEqual({ total: 8e9, active: null });
    expect(parseParamCounts('gpt-oss-20b')).toEqual({ total: 20e9, active: null });
    expect(parseParamCounts('phi-4-mini')).toEqual({ total: null, active: null });
  });
});
