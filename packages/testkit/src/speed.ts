import type { SpeedSummary } from '@crucibleforge/core';
import type { SpeedReport } from '@crucibleforge/speed';

/**
 * A speed report carrying `summary` and nothing measured (no tests, no rounds of its own): for tests that
 * store chosen speed figures with a run (`writeRunSpeed`) instead of measuring them.
 */
export function speedReportOf(summary: SpeedSummary): SpeedReport {
  return {
    schema_version: 1,
    kind: 'speed',
    model: summary.model,
    base_url: '',
    provider_kind: 'generic',
    started_at: '2026-01-01T00:00:00.000Z',
    finished_at: '2026-01-01T00:00:00.000Z',
    settings: { runs: 0, warmup: 0, prompts: [], depths: [], concurrency: [], max_tokens: 0, reasoning: 'auto' },
    endpoint: { sources: [], model: null },
    gguf: null,
    tests: [],
    depth_sweep: null,
    concurrency_sweep: null,
    plausibility: { confidence: summary.plausibility?.confidence ?? 'UNKNOWN', reasons: summary.plausibility?.reasons ?? [], roofline_tps: null, fraction_of_roofline: null, bandwidth_gbs: null, bandwidth_source: null, gpu: null, active_weight_bytes: null, weights_source: null, kv_bytes_per_token: 0, cache_resident: false },
    formulas: {} as SpeedReport['formulas'],
    summary,
    failures: 0,
    wrong_model: false,
    ok: true,
    warnings: [],
  };
}
