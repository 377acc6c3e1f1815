import type { Observed } from './measure';
import { percentileSorted } from '@crucibleforge/core';
import { disagrees } from './tokens';
import type { GapStats, RequestTimings, ServerComparison, ServerTimings, TokenSource } from './types';

/** Client and server figures further apart than this (as a share of the server's) set `server_mismatch`. */
export const SERVER_TOLERANCE = 0.2;
/** Reported and estimated token counts further apart than this set `usage_mismatch`. */
export const USAGE_TOLERANCE = 0.1;
/** Time comparisons also need this absolute difference (s) before they count as a disagreement. */
const TIME_FLOOR_S = 0.02;

function seconds(at: number | null, t0: number): number | null {
  return at === null ? null : (at - t0) / 1000;
}

export function gapStats(gapsMs: readonly number[]): GapStats {
  if (gapsMs.length === 0) return { n: 0, mean_s: null, p50_s: null, p90_s: null, p99_s: null, max_s: null };
  const sorted = Float64Array.from(gapsMs).sort();
  const xs = Array.from(sorted, (ms) => ms / 1000);
  let sum = 0;
  for (const x of xs) sum += x;
  return {
    n: xs.length,
    mean_s: sum / xs.length,
    p50_s: percentileSorted(xs, 50),
    p90_s: percentileSorted(xs, 90),
    p99_s: percentileSorted(xs, 99),
    max_s: xs[xs.length - 1]!,
  };
}

interface TokenCounts {
  completion: number;
  source: TokenSource;
  first: number;
}

/**
 * N_out and N_first of the decode formula. N_out: usage, else the server's predicted count, else the
 * client estimate. N_first: 1 when there are as many token-bearing events as tokens, else the first
 * event's share of the characters (never "one event = one token").
 */
function tokenCounts(obs: Observed): TokenCounts {
  const fromUsage = obs.usage?.completion_tokens ?? null;
  const fromServer = obs.llama?.predicted_tokens ?? null;
  const [completion, source]: [number, TokenSource] =
    fromUsage !== null ? [fromUsage, 'usage'] : fromServer !== null ? [fromServer, 'server'] : [obs.estimatedTokens, 'estimate'];
  let first: number;
  if (obs.tokenEvents === 0) first = 0;
  else if (completion === obs.tokenEvents) first = 1;
  else if (source === 'estimate') first = obs.firstEventEstimate;
  else first = obs.totalChars > 0 ? (completion * obs.firstEventChars) / obs.totalChars : 1;
  return { completion, source, first };
}

function compare(client: number | null, server: number | null, floor = 0): number | null {
  if (client === null || server === null || server <= 0) return null;
  if (Math.abs(client - server) < floor) return 1;
  return client / server;
}

function serverComparison(server: ServerTimings | null, decodeTps: number | null, ttft: number | null): ServerComparison | null {
  if (!server) return null;
  return {
    decode_ratio: compare(decodeTps, server.decode_tps),
    ttft_ratio: compare(ttft, server.ttft_s, TIME_FLOOR_S),
  };
}

/** Turns the observations of one finished request into its metrics (see metrics.md). */
export function computeTimings(obs: Observed): { values: RequestTimings; warnings: string[] } {
  const warnings: string[] = [];
  const t0 = obs.t0;
  const ttft = seconds(obs.firstTokenAt, t0);
  const ttftContent = seconds(obs.firstContentAt, t0);
  const counts = tokenCounts(obs);
  const decodeS =
    obs.firstTokenAt !== null && obs.lastTokenAt !== null ? (obs.lastTokenAt - obs.firstTokenAt) / 1000 : null;
  let decodeTps: number | null = null;
  if (counts.completion >= 2 && obs.tokenEvents >= 2 && decodeS !== null && decodeS > 0) {
    decodeTps = (counts.completion - counts.first) / decodeS;
  } else if (counts.completion >= 2 && obs.tokenEvents > 0) {
    warnings.push('decode speed undefined: all tokens arrived in one read');
  }

  const usage = obs.usage;
  const llama = obs.llama;
  const cached = usage?.cached_tokens ?? llama?.cached_tokens ?? null;
  const prompt =
    usage?.prompt_tokens ?? (llama?.prompt_tokens != null ? llama.prompt_tokens + (llama.cached_tokens ?? 0) : null);
  const uncached = prompt === null ? null : Math.max(0, prompt - (cached ?? 0));
  const serverPromptS = llama?.prompt_s ?? null;
  const useServer = serverPromptS !== null && serverPromptS > 0;
  const prefillS = useServer ? serverPromptS : ttft;
  const prefillSource = prefillS === null ? null : useServer ? 'server' : 'ttft';
  const prefillTps = uncached !== null && uncached > 0 && prefillS !== null && prefillS > 0 ? uncached / prefillS : null;
  if (cached !== null && cached > 0) warnings.push(`${cached} prompt tokens came from the server's cache`);

  const reportedReasoning = usage?.reasoning_tokens ?? null;
  const estimatedReasoning = Math.round(obs.estimatedReasoning);
  const usageMismatch =
    counts.source !== 'estimate' &&
    (disagrees(obs.estimatedTokens, counts.completion, USAGE_TOLERANCE) ||
      (reportedReasoning !== null && disagrees(estimatedReasoning, reportedReasoning, USAGE_TOLERANCE)));
  if (usageMismatch) {
    warnings.push(
      `reported tokens (${counts.completion} completion, ${reportedReasoning ?? '?'} reasoning) differ from the client estimate ` +
        `(${obs.estimatedTokens}, ${estimatedReasoning}) by more than ${USAGE_TOLERANCE * 100} %`,
    );
  }

  const server = llama ?? obs.lmstudio;
  const comparison = serverComparison(server, decodeTps, ttft);
  const off = (ratio: number | null | undefined) => ratio != null && Math.abs(ratio - 1) > SERVER_TOLERANCE;
  const serverMismatch = off(comparison?.decode_ratio) || off(comparison?.ttft_ratio);
  if (serverMismatch) warnings.push(`server-reported timings differ from the client's by more than ${SERVER_TOLERANCE * 100} %`);

  return {
    warnings,
    values: {
      ttfb_s: seconds(obs.firstByteAt, t0),
      ttft_s: ttft,
      ttft_reasoning_s: seconds(obs.firstReasoningAt, t0),
      ttft_content_s: ttftContent,
      think_s: ttft !== null && ttftContent !== null ? ttftContent - ttft : null,
      e2e_s: seconds(obs.lastTokenAt, t0),
      decode_s: decodeS,
      decode_tps: decodeTps,
      prefill_s: prefillS,
      prefill_source: prefillSource,
      prefill_tps: prefillTps,
      gaps: gapStats(obs.gapsMs),
      first_event_tokens: obs.tokenEvents > 0 ? counts.first : null,
      prompt_tokens: prompt,
      cached_tokens: cached,
      uncached_prompt_tokens: uncached,
      completion_tokens: obs.tokenEvents > 0 || counts.source !== 'estimate' ? counts.completion : 0,
      reasoning_tokens: reportedReasoning,
      token_source: counts.source,
      estimated_completion_tokens: obs.estimatedTokens,
      estimated_reasoning_tokens: estimatedReasoning,
      usage_mismatch: usageMismatch,
      server_timings: server,
      server_comparison: comparison,
      server_mismatch: serverMismatch,
      events: {
        total: obs.totalEvents,
        token_bearing: obs.tokenEvents,
        comments: obs.comments,
        malformed: obs.malformed,
      },
    },
  };
}
