import type { ChatReply, ChatRequest, Clock, FetchLike } from '@crucibleforge/core';
import type { ResolvedModel } from './config';

/** The part of the timing client's TimedCompletion the runner uses (a TimedCompletion satisfies it). */
export interface TimedReply {
  reply: ChatReply;
  served_model: string | null;
  ttft_s: number | null;
  ttft_content_s: number | null;
  e2e_s: number | null;
  decode_tps: number | null;
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
