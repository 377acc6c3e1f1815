import type { ChatCompleter, ChatReply, ChatRequest } from '@crucibleforge/core';
import { streamChat } from './stream';
import type { EndpointOptions, TimedCompletion } from './types';

export interface TimedCompleterOptions extends EndpointOptions {
  extraBody?: Record<string, unknown>;
  signal?: AbortSignal;
}

/** core's ChatCompleter backed by the timing client, plus the timed variant. */
export interface TimedCompleter extends ChatCompleter {
  complete(request: ChatRequest): Promise<ChatReply>;
  completeTimed(request: ChatRequest): Promise<TimedCompletion>;
}

/** A ChatCompleter for one endpoint and model that streams every request and keeps its timings. */
export function createTimedCompleter(options: TimedCompleterOptions): TimedCompleter {
  const completeTimed = (request: ChatRequest): Promise<TimedCompletion> =>
    streamChat({ ...options, request, events: false }).result;
  return {
    completeTimed,
    complete: async (request) => (await completeTimed(request)).reply,
  };
}
