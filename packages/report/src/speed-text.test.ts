import { runSpeedBenchmark } from '@crucibleforge/speed';
import { startSimEndpoint } from '@crucibleforge/sim-endpoint';
import { describe, expect, it } from 'vitest';
import { renderSpeedReport, speedFailureText } from './speed-text';

describe('renderSpeedReport', () => {
  it('prints per-test statistics, the sweeps, plausibility and the formulas', async () => {
    const sim = await startSimEndpoint({
      models: [{ id: 'qwen3-8b-q4_k_m', context_length: 32768, decode_tps: 2000, first_token_base_ms: 5, answer: { content: 'a b c d e f g h i j k l m n o p' } }],
    });
    try {
      const report = await runSpeedBenchmark({
        baseUrl: sim.url,
        model: 'qwen3-8b-q4_k_m',
        runs: 2,
        warmup: 0,
        prompts: ['short'],
        depths: [256],
        concurrency: [1, 2],
        bandwidthGbs: 1000,
      });
      const table = renderSpeedReport(report);
      expect(table).toMatch(/short_50 +TTFT \(s\) +2 /);
      expect(table).toMatch(/TTFT reasoning \(s\) +0 +— +— /);
      // the rendering, whatever the verdict (the sim's speed on a loaded host decides it; speed's tests check the verdict)
      expect(table).toMatch(/\nplausibility: (HIGH|MEDIUM|LOW|SUSPICIOUS|UNKNOWN)\n/);
      expect(table).toMatch(/depth sweep\n.*\n256 /);
      expect(table).toMatch(/concurrency sweep/);
      expect(table).toMatch(/ {2}decode +\(N_out − N_first\)/);
    } finally {
      await sim.close();
    }
  });
});

describe('speedFailureText', () => {
  it('names the key variable for a rejected key, shows partial timings for a cut-off request, and makes the message inert', () => {
    expect(speedFailureText({ code: 'TIMING_AUTH', message: '401' }, 'SIM_KEY')).toBe('TIMING_AUTH: key rejected, set SIM_KEY to a valid key (401)\n');
    expect(speedFailureText({ code: 'TIMING_AUTH', message: '401' }, undefined)).toMatch(/pass --api-key-env VAR \(401\)\n$/);
    const partial = { headers_s: 0.01, ttfb_s: 0.02, ttft_s: null, last_token_s: null, token_events: 0, content_chars: 0, reasoning_chars: 0, elapsed_s: 5 };
    expect(speedFailureText({ code: 'TIMING_GAP_TIMEOUT', message: 'stalled', details: { partial } }, undefined)).toBe(
      'TIMING_GAP_TIMEOUT: stalled\n  partial timings: headers 0.010 s, TTFB 0.020 s, 0 token events, 0 characters, elapsed 5.000 s\n',
    );
    expect(speedFailureText({ code: 'TIMING_HTTP', message: 'bad \u001b[2J' }, undefined)).not.toContain('\u001b');
  });
});
