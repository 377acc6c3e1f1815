import { EMPTY_USAGE, sameModel, type ChatReply, type FinishReason, type TokenUsage, type ToolCall } from '@crucibleforge/core';
import {
  mapFinishReason,
  parseLlamaTimings,
  parseLmStudioStats,
  parseUsage,
  streamErrorMessage,
  toolFragments,
} from './chunk';
import { computeTimings } from './compute';
import { ThinkSplitter } from './think';
import { estimateEventTokens } from './tokens';
import type { PartialTimings, ServerTimings, TimedCompletion, TimingEvent } from './types';

type Json = Record<string, unknown>;

/** Everything observed about one streamed request, on the injected clock (ms). */
export interface Observed {
  t0: number;
  headersAt: number | null;
  firstByteAt: number | null;
  firstTokenAt: number | null;
  lastTokenAt: number | null;
  firstReasoningAt: number | null;
  firstContentAt: number | null;
  endAt: number | null;
  gapsMs: number[];
  tokenEvents: number;
  totalEvents: number;
  comments: number;
  malformed: number;
  /** Reads whose bytes were not valid UTF-8 (decoded with replacement characters). */
  decodeErrors: number;
  /** The body ended before `[DONE]` and without a finish_reason. */
  unexpectedEnd: boolean;
  firstEventChars: number;
  firstEventEstimate: number;
  totalChars: number;
  estimatedTokens: number;
  estimatedReasoning: number;
  usage: TokenUsage | null;
  llama: ServerTimings | null;
  lmstudio: ServerTimings | null;
}

/** Nothing observed yet: a request that started at `t0` (ms on the injected clock). */
export function emptyObserved(t0: number): Observed {
  return {
    t0,
    headersAt: null,
    firstByteAt: null,
    firstTokenAt: null,
    lastTokenAt: null,
    firstReasoningAt: null,
    firstContentAt: null,
    endAt: null,
    gapsMs: [],
    tokenEvents: 0,
    totalEvents: 0,
    comments: 0,
    malformed: 0,
    decodeErrors: 0,
    unexpectedEnd: false,
    firstEventChars: 0,
    firstEventEstimate: 0,
    totalChars: 0,
    estimatedTokens: 0,
    estimatedReasoning: 0,
    usage: null,
    llama: null,
    lmstudio: null,
  };
}

/**
 * Accumulates one streamed chat completion: classifies each SSE event (role-only chunks, empty
 * deltas, comments and usage-only chunks are never tokens), assembles the reply and keeps the
 * timestamps the metrics need. Pure: timestamps are passed in.
 */
export class Measurement {
  readonly obs: Observed;
  private content = '';
  private reasoning = '';
  private rawContentAt: number | null = null;
  private estimatedContent = 0;
  private readonly tools = new Map<number, ToolCall>();
  private readonly splitter = new ThinkSplitter();
  private served: string | null = null;
  private finish: FinishReason = null;
  private readonly warnings: string[] = [];

  constructor(
    private readonly requestedModel: string,
    t0: number,
    private readonly emit: ((event: TimingEvent) => void) | null,
  ) {
    this.obs = emptyObserved(t0);
    emit?.({ type: 'request-start', at_s: 0 });
  }

  private s(at: number): number {
    return (at - this.obs.t0) / 1000;
  }

  headers(at: number, status: number, contentType: string | null): void {
    this.obs.headersAt = at;
    this.emit?.({ type: 'response-headers', at_s: this.s(at), status, content_type: contentType });
  }

  bytes(at: number): void {
    this.obs.firstByteAt ??= at;
  }

  comment(at: number, text: string): void {
    this.obs.comments += 1;
    this.emit?.({ type: 'comment', at_s: this.s(at), text });
  }

  /** A `data:` frame that is not JSON: counted and skipped. */
  malformed(data: string): void {
    this.obs.malformed += 1;
    if (this.obs.malformed === 1) this.warnings.push(`skipped a data frame that is not JSON: ${data.slice(0, 80)}`);
  }

  /** A read that was not valid UTF-8: counted (its text is decoded with replacement characters). */
  decodeError(): void {
    this.obs.decodeErrors += 1;
    if (this.obs.decodeErrors === 1) this.warnings.push('the stream carried bytes that are not valid UTF-8');
  }

  /** Where the body ended: after `[DONE]` (`sawDone`), else it must at least have carried a finish_reason. */
  bodyEnded(sawDone: boolean): void {
    this.obs.unexpectedEnd = !sawDone && this.finish === null;
    if (this.obs.unexpectedEnd) this.warnings.push('the stream ended unexpectedly (no finish_reason, no [DONE])');
  }

  /** One parsed `data:` JSON object. Returns the message of an in-stream error frame, else null. */
  chunk(at: number, chunk: Json): string | null {
    const obs = this.obs;
    obs.totalEvents += 1;
    const error = streamErrorMessage(chunk);
    if (error !== null) return error;
    if (this.served === null && typeof chunk.model === 'string' && chunk.model.length > 0) this.served = chunk.model;
    if (chunk.usage != null) {
      const usage = parseUsage(chunk.usage);
      if (usage) {
        obs.usage = usage;
        this.emit?.({ type: 'usage', at_s: this.s(at), usage });
      }
    }
    if (chunk.timings != null) this.serverTimings(at, parseLlamaTimings(chunk.timings));
    if (chunk.stats != null) this.serverTimings(at, parseLmStudioStats(chunk.stats));
    const choices = chunk.choices;
    if (!Array.isArray(choices) || choices.length === 0) return null;
    const choice = choices[0] as Json;
    const delta = (choice.delta ?? choice.message) as Json | undefined;
    if (delta) this.delta(at, delta);
    if (choice.finish_reason != null) {
      this.finish = mapFinishReason(choice.finish_reason);
      this.emit?.({ type: 'finish', at_s: this.s(at), finish_reason: this.finish });
    }
    return null;
  }

  private serverTimings(at: number, timings: ServerTimings | null): void {
    if (!timings) return;
    if (timings.source === 'llamacpp') this.obs.llama = timings;
    else this.obs.lmstudio = timings;
    this.emit?.({ type: 'server-timings', at_s: this.s(at), timings });
  }

  private delta(at: number, delta: Json): void {
    const obs = this.obs;
    const rc = delta.reasoning_content;
    const rr = delta.reasoning;
    const reasoning = typeof rc === 'string' && rc.length > 0 ? rc : typeof rr === 'string' && rr.length > 0 ? rr : '';
    const content = typeof delta.content === 'string' ? delta.content : '';
    const fragments = delta.tool_calls === undefined || delta.tool_calls === null ? [] : toolFragments(delta.tool_calls);
    let toolChars = 0;
    for (const f of fragments) toolChars += (f.name?.length ?? 0) + f.arguments.length;
    const chars = reasoning.length + content.length + toolChars;
    if (chars === 0) return; // role-only chunk, empty delta, a tool header without name or arguments
    const estimate = estimateEventTokens(chars);
    obs.tokenEvents += 1;
    obs.totalChars += chars;
    obs.estimatedTokens += estimate;
    if (obs.firstTokenAt === null) {
      obs.firstTokenAt = at;
      obs.firstEventChars = chars;
      obs.firstEventEstimate = estimate;
    } else obs.gapsMs.push(at - (obs.lastTokenAt ?? at));
    obs.lastTokenAt = at;
    let reasoningChars = 0;
    if (reasoning.length > 0) {
      this.reasoning += reasoning;
      reasoningChars += reasoning.length;
      obs.firstReasoningAt ??= at;
      this.emit?.({ type: 'reasoning-delta', at_s: this.s(at), text: reasoning });
    }
    if (content.length > 0) reasoningChars += this.content_(at, content);
    for (const f of fragments) this.tool(at, f);
    const reasoningShare = chars > 0 ? (estimate * reasoningChars) / chars : 0;
    obs.estimatedReasoning += reasoningShare;
    this.estimatedContent += estimate - reasoningShare;
  }

  /** Splits inline think tags out of content; returns how many of the characters were reasoning. */
  private content_(at: number, text: string): number {
    const obs = this.obs;
    this.rawContentAt ??= at;
    const piece = this.splitter.push(text);
    if (piece.reclassify) {
      // Everything so far was reasoning: the template opened the think block in the prompt.
      this.reasoning += this.content;
      this.content = '';
      obs.estimatedReasoning += this.estimatedContent;
      this.estimatedContent = 0;
      obs.firstReasoningAt = Math.min(obs.firstReasoningAt ?? at, this.rawContentAt);
      obs.firstContentAt = null;
    }
    if (piece.reasoning_seen) obs.firstReasoningAt ??= at;
    if (piece.reasoning.length > 0) {
      this.reasoning += piece.reasoning;
      this.emit?.({ type: 'reasoning-delta', at_s: this.s(at), text: piece.reasoning });
    }
    if (piece.content.length > 0) {
      this.content += piece.content;
      if (obs.firstContentAt === null && piece.content.trim().length > 0) obs.firstContentAt = at;
      this.emit?.({ type: 'text-delta', at_s: this.s(at), text: piece.content });
    }
    return Math.max(0, text.length - piece.content.length);
  }

  private tool(at: number, f: ReturnType<typeof toolFragments>[number]): void {
    let call = this.tools.get(f.index);
    if (!call) {
      call = { id: '', name: '', arguments: '' };
      this.tools.set(f.index, call);
    }
    if (f.id) call.id = f.id;
    if (f.name) call.name += f.name;
    call.arguments += f.arguments;
    const event: TimingEvent = { type: 'tool-call-delta', at_s: this.s(at), index: f.index, arguments: f.arguments };
    if (f.id) event.id = f.id;
    if (f.name) event.name = f.name;
    this.emit?.(event);
  }

  /** The stream ended normally. */
  end(at: number): void {
    const tail = this.splitter.flush();
    if (tail.reasoning.length > 0) this.reasoning += tail.reasoning;
    if (tail.content.length > 0) this.content += tail.content;
    this.obs.endAt = at;
    this.emit?.({ type: 'response-end', at_s: this.s(at) });
  }

  reply(): ChatReply {
    return {
      content: this.content,
      reasoning: this.reasoning,
      tool_calls: [...this.tools.entries()].sort((a, b) => a[0] - b[0]).map(([, call]) => call),
      finish_reason: this.finish,
      model: this.served,
      usage: this.obs.usage ?? { ...EMPTY_USAGE },
    };
  }

  result(): TimedCompletion {
    const timings = computeTimings(this.obs);
    const warnings = [...this.warnings, ...timings.warnings];
    const wrong = this.served !== null && !sameModel(this.requestedModel, this.served);
    if (wrong) warnings.push(`requested model "${this.requestedModel}" but the response names "${this.served}"`);
    if (this.served === null) warnings.push('the response did not name a model');
    if (this.finish === null && !this.obs.unexpectedEnd) warnings.push('the stream ended without a finish_reason');
    const reply = this.reply();
    if (reply.usage.cached_tokens === null && timings.values.cached_tokens !== null) {
      reply.usage = { ...reply.usage, cached_tokens: timings.values.cached_tokens };
    }
    return {
      ...timings.values,
      reply,
      requested_model: this.requestedModel,
      served_model: this.served,
      wrong_model: wrong,
      finish_reason: this.finish,
      stream_integrity: {
        ok: this.obs.malformed === 0 && this.obs.decodeErrors === 0 && !this.obs.unexpectedEnd,
        dropped_events: this.obs.malformed,
        decode_errors: this.obs.decodeErrors,
        unexpected_end: this.obs.unexpectedEnd,
      },
      warnings,
    };
  }

  partial(now: number): PartialTimings {
    const o = this.obs;
    const s = (at: number | null) => (at === null ? null : (at - o.t0) / 1000);
    return {
      elapsed_s: (now - o.t0) / 1000,
      headers_s: s(o.headersAt),
      ttfb_s: s(o.firstByteAt),
      ttft_s: s(o.firstTokenAt),
      ttft_reasoning_s: s(o.firstReasoningAt),
      ttft_content_s: s(o.firstContentAt),
      last_token_s: s(o.lastTokenAt),
      token_events: o.tokenEvents,
      content_chars: this.content.length,
      reasoning_chars: this.reasoning.length,
      served_model: this.served,
    };
  }
}
