import type { ServerResponse } from 'node:http';
import type { Plan } from './plan';
import type { ResolvedModel } from './model';
import { LOADING_COMMENT_MS, firstTokenDelayMs } from './model';
import { waitUntil } from './timer';
import type { SimFault, SimTruth } from './types';
import { chunk, completionBody, eventDelta, sseFormatter, timingsObject, usageObject, type ReplyHeader } from './wire';

/** Everything needed to send one successful (or mid-stream faulted) reply. */
export interface ReplyContext {
  res: ServerResponse;
  model: ResolvedModel;
  plan: Plan;
  truth: SimTruth;
  header: ReplyHeader;
  fault: Exclude<SimFault, { kind: 'status' } | { kind: 'not_sse' } | { kind: 'reset_before_response' }> | undefined;
  /** The request carried stream_options.include_usage. */
  include_usage: boolean;
  /** Aborts when the client goes away or the endpoint closes. */
  signal: AbortSignal;
  /** When the answer was there (performance.now()); keep-alive comments before it went out while it was awaited. */
  answered_ms: number;
}

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' };

/** Sends the 200 event-stream head unless it went out already (while an answer was awaited). */
function openStream(res: ServerResponse): void {
  if (res.headersSent) return;
  res.writeHead(200, SSE_HEADERS);
  res.flushHeaders();
}

/**
 * Awaits a (possibly slow) answer. On a stream with `keep_alive_ms`, every `keep_alive_ms` after receipt still
 * without the answer sends `: keep-alive`, the first one opening the stream. Rejects as the answer does.
 */
export async function awaitWithKeepAlive<T>(answer: Promise<T>, res: ServerResponse, model: ResolvedModel, truth: SimTruth, signal: AbortSignal): Promise<T> {
  if (!truth.stream || model.keep_alive_ms <= 0) return answer;
  const settled = new AbortController();
  const stop = AbortSignal.any([signal, settled.signal]);
  const beats = (async () => {
    for (let k = 1; await waitUntil(truth.received_ms + k * model.keep_alive_ms, stop); k++) {
      openStream(res);
      truth.status = 200;
      res.write(sseFormatter(model.crlf).comment('keep-alive'));
    }
  })();
  try {
    return await answer;
  } finally {
    settled.abort();
    await beats;
  }
}

/** Fails a request whose stream is open already: one `data: {"error": …}` frame, then the end of the body. */
export function streamError(res: ServerResponse, model: ResolvedModel, body: unknown): void {
  res.end(sseFormatter(model.crlf).data(body));
}

function usageFor(ctx: ReplyContext) {
  return usageObject({
    prompt_tokens: ctx.truth.prompt_tokens,
    cached_tokens: ctx.model.cached_tokens,
    completion_tokens: ctx.truth.completion_tokens,
    reasoning_tokens: ctx.truth.reasoning_tokens,
  });
}

function timingsFor(ctx: ReplyContext) {
  const firstEventTokens = ctx.plan.events[0]?.tokens ?? 0;
  return timingsObject(ctx.truth, ctx.model.cached_tokens, firstEventTokens, ctx.model.decode_tps);
}

/** Writes text and returns the send time on performance.now(). */
function send(res: ServerResponse, text: string): number {
  const at = performance.now();
  res.write(text);
  return at;
}

/** Marks the token counts of one sent event in the truth record. */
function recordEvent(truth: SimTruth, at: number, tokens: number, reasoning: number, content: number, tool: boolean) {
  truth.events += 1;
  truth.completion_tokens += tokens;
  truth.reasoning_tokens += reasoning;
  truth.content_tokens += content;
  if (tokens > 0) {
    (truth.event_times_ms ??= []).push(at);
    truth.first_token_ms ??= at;
    truth.last_token_ms = at;
  }
  if (reasoning > 0) truth.first_reasoning_ms ??= at;
  if (content > 0) truth.first_content_ms ??= at;
  if (tool) truth.tool_call_count += 1;
}

/** The comments and role chunk sent before the first token, in time order. */
function preludeSteps(ctx: ReplyContext, tFirst: number): { at: number; text: string }[] {
  const { model, truth } = ctx;
  const sse = sseFormatter(model.crlf);
  const steps: { at: number; text: string; order: number }[] = [];
  const t0 = truth.received_ms;
  for (let k = 0; k < model.loading_comments; k++) steps.push({ at: t0 + k * LOADING_COMMENT_MS, text: sse.comment('loading model'), order: 0 });
  if (model.role_chunk) {
    const at = t0 + model.loading_comments * LOADING_COMMENT_MS;
    steps.push({ at, text: sse.data(chunk(ctx.header, { role: 'assistant', content: '' }, null, usageNull(ctx))), order: 1 });
  }
  if (model.keep_alive_ms > 0) {
    for (let at = t0 + model.keep_alive_ms; at < tFirst; at += model.keep_alive_ms) {
      if (at > ctx.answered_ms) steps.push({ at, text: sse.comment('keep-alive'), order: 2 });
    }
  }
  return steps.sort((a, b) => a.at - b.at || a.order - b.order);
}

/** OpenAI sends `usage: null` on every chunk but the last when include_usage is set. */
function usageNull(ctx: ReplyContext): Record<string, unknown> {
  return ctx.include_usage && ctx.model.usage_placement === 'separate_chunk' ? { usage: null } : {};
}

/**
 * Streams a reply as SSE on absolute deadlines: token k of the completion is due at
 * t_first + k / decode_tps (plus any stall), so lateness of one event never carries into the next.
 */
export async function streamReply(ctx: ReplyContext): Promise<void> {
  const { res, model, plan, truth, fault, signal } = ctx;
  const sse = sseFormatter(model.crlf);
  openStream(res);
  const tFirst = truth.received_ms + firstTokenDelayMs(model, truth.prompt_tokens);
  truth.first_token_due_ms = tFirst;
  for (const step of preludeSteps(ctx, tFirst)) {
    if (!(await waitUntil(step.at, signal))) return;
    send(res, step.text);
  }
  let shift = 0;
  /** Set by a stall: nothing is sent before this time, and later deadlines move by the same amount. */
  let stallUntil = 0;
  let faultDone = fault === undefined;
  /** Set by corrupted_chunk: the next token event goes out cut off. */
  let corruptNext = false;
  const nl = model.crlf ? '\r\n\r\n' : '\n\n';
  /** Applies the mid-stream fault once `sent` tokens are out; returns false when the stream must stop. */
  const applyFault = (sent: number, force: boolean): boolean => {
    if (faultDone || !fault || (sent < fault.after_tokens && !force)) return true;
    faultDone = true;
    switch (fault.kind) {
      case 'reset':
        res.socket?.destroy();
        return false;
      case 'unexpected_end':
        res.end();
        return false;
      case 'stall':
        stallUntil = performance.now() + fault.stall_ms;
        return true;
      case 'corrupted_chunk':
        corruptNext = true;
        return true;
      case 'bad_utf8': {
        const head = Buffer.from(`data: {"id": "${ctx.header.id}", "choices": [{"index": 0, "delta": {"content": "`);
        res.write(Buffer.concat([head, Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from(`"}}]}${nl}`)]));
        return true;
      }
      case 'malformed_chunk':
        send(res, `data: {"id": "${ctx.header.id}", "choices": [{"delta": {"content": "unterminated${nl}`);
        return true;
    }
  };
  let sent = 0;
  for (const event of plan.events) {
    if (!applyFault(sent, false)) return;
    let due = tFirst + shift + (event.first_token / model.decode_tps) * 1000;
    if (due < stallUntil) {
      shift += stallUntil - due;
      due = stallUntil;
    }
    if (!(await waitUntil(due, signal))) return;
    const frame = sse.data(chunk(ctx.header, eventDelta(event, model.reasoning_encoding), null, usageNull(ctx)));
    // A corrupted event loses its closing half: the client cannot parse it and its text is gone.
    const at = send(res, corruptNext ? `${frame.slice(0, Math.floor(frame.length / 2))}${nl}` : frame);
    corruptNext = false;
    recordEvent(truth, at, event.tokens, event.reasoning_tokens, event.content_tokens, event.tool?.id !== undefined);
    sent += event.tokens;
  }
  if (!applyFault(sent, true)) return;
  // A stall that falls after the last token holds back the finish chunk instead.
  if (stallUntil > performance.now() && !(await waitUntil(stallUntil, signal))) return;
  truth.finish_reason = plan.finish_reason;
  const extra: Record<string, unknown> = usageNull(ctx);
  if (model.usage_placement === 'finish_chunk') extra.usage = usageFor(ctx);
  if (model.llamacpp_timings) extra.timings = timingsFor(ctx);
  send(res, sse.data(chunk(ctx.header, {}, plan.finish_reason, extra)));
  if (model.usage_placement === 'separate_chunk' && ctx.include_usage) {
    send(res, sse.data(chunk(ctx.header, null, null, { usage: usageFor(ctx) })));
  }
  send(res, sse.data('[DONE]'));
  res.end();
}

/**
 * Answers a non-streaming request with one JSON body at the time the last token would have been
 * sent. Faults: reset destroys the socket when token `after_tokens` is due, stall adds its delay,
 * malformed_chunk, corrupted_chunk, bad_utf8 and unexpected_end send a cut-off JSON body.
 */
export async function jsonReply(ctx: ReplyContext): Promise<void> {
  const { res, model, plan, truth, fault, signal } = ctx;
  const tFirst = truth.received_ms + firstTokenDelayMs(model, truth.prompt_tokens);
  truth.first_token_due_ms = tFirst;
  const lastEvent = plan.events[plan.events.length - 1];
  let due = tFirst + ((lastEvent?.first_token ?? 0) / model.decode_tps) * 1000;
  if (fault?.kind === 'reset') {
    const at = tFirst + (Math.min(fault.after_tokens, plan.completion_tokens) / model.decode_tps) * 1000;
    if (await waitUntil(at, signal)) res.socket?.destroy();
    return;
  }
  if (fault?.kind === 'stall') due += fault.stall_ms;
  if (!(await waitUntil(due, signal))) return;
  // The whole reply is one send: every token's send time is this moment.
  recordEvent(truth, performance.now(), plan.completion_tokens, plan.reasoning_tokens, plan.content_tokens, false);
  truth.tool_call_count = plan.tool_calls.length;
  truth.finish_reason = plan.finish_reason;
  const extra: Record<string, unknown> = { usage: usageFor(ctx) };
  if (model.llamacpp_timings) extra.timings = timingsFor(ctx);
  const body = JSON.stringify(completionBody(ctx.header, plan, model.reasoning_encoding, extra));
  res.writeHead(200, { 'content-type': 'application/json' });
  const cut = fault?.kind === 'malformed_chunk' || fault?.kind === 'corrupted_chunk' || fault?.kind === 'unexpected_end' || fault?.kind === 'bad_utf8';
  res.end(cut ? body.slice(0, Math.floor(body.length / 2)) : body);
}
