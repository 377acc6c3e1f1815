import type { Clock, FetchLike } from '@crucibleforge/core';
import type { TimedCompleter } from '@crucibleforge/timing';
import type { ResolvedModel } from './config';

export interface ClientWorld {
  fetch?: FetchLike | undefined;
  clock?: Clock | undefined;
}

/**
 * Builds the client of one model: any TimedCompleter (the chat/stream interface of @crucibleforge/timing).
 * The default is the timing package's HTTP client; an in-process engine can stand in. Request failures
 * are thrown as CrucibleErrors (TIMING_* codes for the HTTP client).
 */
export type ClientFactory = (model: ResolvedModel, apiKey: string | undefined, world: ClientWorld) => TimedCompleter;
