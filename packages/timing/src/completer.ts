import type { ChatCompleter, ChatReply, ChatRequest } from '@crucibleforge/core';
import { streamChat } from './stream';
import type { EndpointOptions, TimedCompletion, TimedStream } from './types';

/**
 * The chat/stream interface the runner, the judge and the speed benchmark talk to: core's ChatCompleter plus
 * the timed variants. The HTTP client below is one implementation; an in-process engine can be another (it
 * streams the same {@link TimedStream} events and measures the same {@link TimedCompletion}).
 */
export interface TimedCompleter extends ChatCompleter {
  /** The model id requests go to. */
  readonly model: string;
  /** How requests travel: over HTTP (SSE) or to an engine in this process (its own token events); decides the speed formulas. */
  readonly transport?: 'http' | 'in-process';
  complete(request: ChatRequest): Promise<ChatReply>;
  /** One request, measured (events are not kept). */
  completeTimed(request: ChatRequest): Promise<TimedCompletion>;
  /** One request as typed events (iterate once) plus the promise of its measurement. */
  stream(request: ChatRequest): TimedStream;
}

export interface TimedCompleterOptions extends EndpointOptions {
  extraBody?: Record<string, unknown>;
  signal?: AbortSignal;
}

/** The HTTP implementation: a {@link TimedCompleter} for one OpenAI-compatible endpoint and model (every request streamed). */
export function createTimedCompleter(options: TimedCompleterOptions): TimedCompleter {
  const completeTimed = (request: ChatRequest): Promise<TimedCompletion> => streamChat({ ...options, request, events: false }).result;
  return {
    model: options.model,
    transport: 'http',
    completeTimed,
    complete: async (request) => (await completeTimed(request)).reply,
    stream: (request) => streamChat({ ...options, request }),
  };
}
