/** The formula behind every number the speed report prints (tools disagree on these words; metrics.md). */
export const FORMULAS = {
  t0: 'the moment the request is handed to fetch (monotonic clock)',
  ttfb_s: 'first byte of the response body − t0',
  ttft_s:
    'first SSE event carrying content, reasoning or a tool-call fragment − t0 (role-only chunks, empty deltas, SSE comments and the usage chunk are not tokens)',
  ttft_reasoning_s: 'first reasoning token (reasoning_content / reasoning / inside <think>) − t0',
  ttft_content_s: 'first visible answer token (after </think> for inline tags) − t0',
  e2e_s: 'last token-bearing event − t0 (the trailing usage chunk is ignored)',
  decode_tps:
    '(N_out − N_first) ÷ (t_last_token − t_first_token); N_out from usage, else server timings, else a client estimate; N_first = tokens of the first token-bearing event, from its share of the characters',
  prefill_tps: '(prompt_tokens − cached_tokens) ÷ prefill time (server timings.prompt_ms when sent, else TTFT)',
  gaps: 'times between consecutive token-bearing events (event gaps, not per-token latency), p50/p90/p99',
  aggregate_tps: 'Σ completion tokens of all streams ÷ wall time from the first request to the last token',
  roofline_tps:
    'achievable memory bandwidth (90 % of the advertised, or this host\'s STREAM-like measured copy bandwidth) ÷ bytes read per token: active weights (MoE: experts used only) + KV cache at the context depth',
  stats: 'n runs after warm-up; mean, median, p90 (linear interpolation), min, max',
} as const;

/** The formulas as a speed report carries them. */
export type Formulas = { readonly [K in keyof typeof FORMULAS]: string };

/** The same numbers for a model run in process (a completer's own token events, no HTTP in between). */
export const IN_PROCESS_FORMULAS: Formulas = {
  ...FORMULAS,
  t0: 'the moment the engine starts the request (monotonic clock; its context history cleared, no prompt cache)',
  ttfb_s: 'not measured in process (no HTTP response)',
  ttft_s: 'first token the engine generates (its own token event) − t0',
  e2e_s: 'last generated token − t0',
  decode_tps: '(N_out − N_first) ÷ (t_last_token − t_first_token); N_out and N_first = tokens the engine generated (its tokenizer, exact)',
  prefill_tps: 'prompt tokens the engine evaluated ÷ TTFT',
};
