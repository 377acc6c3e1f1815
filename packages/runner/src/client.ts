import type { ChatReply, ChatRequest, Clock, FetchLike, StreamDamage } from '@crucibleforge/core';
import type { ResolvedModel } from './config';
import { RunnerError } from './errors';

/** The part of the timing client's TimedCompletion the runner uses (a TimedCompletion satisfies it). */
export interface TimedReply {
  reply: ChatReply;
  served_model: string | null;
  ttft_s: number | null;
  ttft_content_s: number | null;
  e2e_s: number | null;
  decode_tps: number | null;
  /** Whether the stream arrived whole (the timing client's check); absent = not known, taken as whole. */
  stream_integrity?: StreamDamage & { ok: boolean };
}

/**
 * One request whose damaged stream is a failure (RUNNER_BAD_STREAM, retryable), never a reply to grade: a
 * dropped event's text is missing from the answer, so grading it would blame the model for the provider.
 */
export async function completeWhole(client: ModelClient, request: ChatRequest): Promise<TimedReply> {
  const result = await client.completeTimed(request);
  const integrity = result.stream_integrity;
  if (integrity && !integrity.ok) {
    const what = [
      integrity.dropped_events > 0 ? `${integrity.dropped_events} event(s) that were not JSON were dropped` : '',
      integrity.decode_errors > 0 ? `${integrity.decode_errors} read(s) were not valid UTF-8` : '',
      integrity.unexpected_end ? 'it ended without a finish_reason or [DONE]' : '',
    ].filter((part) => part !== '');
    const stream: StreamDamage = { dropped_events: integrity.dropped_events, decode_errors: integrity.decode_errors, unexpected_end: integrity.unexpected_end };
    throw new RunnerError('RUNNER_BAD_STREAM', `the reply stream arrived damaged: ${what.join('; ')}`, { retryable: true, details: { stream } });
  }
  return result;
}

/** One model's endpoint: a streamed, timed chat completion. Throws CrucibleErrors for request failures. */
export interface ModelClient {
  completeTimed(request: ChatRequest): Promise<TimedReply>;
  /** Frees what the client holds (an in-process engine's weights); called when the model's work is done. */
  close?(): Promise<void>;
}

export interface ClientWorld {
  fetch?: FetchLike | undefined;
  clock?: Clock | undefined;
}

/** Builds a client for one model; the default uses @crucibleforge/timing. */
export type ClientFactory = (model: ResolvedModel, apiKey: string | undefined, world: ClientWorld) => ModelClient;
