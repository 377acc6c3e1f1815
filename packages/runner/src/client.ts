import type { ChatRequest, Clock, FetchLike, StreamDamage } from '@crucibleforge/core';
import type { TimedCompleter, TimedCompletion } from '@crucibleforge/timing';
import type { ResolvedModel } from './config';
import { RunnerError } from './errors';

/**
 * One request whose damaged stream is a failure (RUNNER_BAD_STREAM, retryable), never a reply to grade: a
 * dropped event's text is missing from the answer, so grading it would blame the model for the provider.
 */
export async function completeWhole(client: Pick<TimedCompleter, 'completeTimed'>, request: ChatRequest): Promise<TimedCompletion> {
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

/**
 * One model's client: the streaming client's chat/stream interface ({@link TimedCompleter}: the HTTP client,
 * or the in-process engine), plus `close()` for what it holds (an engine's weights), called when the
 * model's work is done. Request failures are thrown as CrucibleErrors.
 */
export type ModelClient = TimedCompleter & { close?(): Promise<void> };

export interface ClientWorld {
  fetch?: FetchLike | undefined;
  clock?: Clock | undefined;
}

/**
 * Builds the client of one model: any TimedCompleter (the chat/stream interface of @crucibleforge/timing).
 * The default is the timing package's HTTP client; an in-process engine can stand in. Request failures
 * are thrown as CrucibleErrors (TIMING_* codes for the HTTP client).
 */
export type ClientFactory = (model: ResolvedModel, apiKey: string | undefined, world: ClientWorld) => ModelClient;
