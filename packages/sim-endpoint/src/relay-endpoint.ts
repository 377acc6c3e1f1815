import { tableError } from '@crucibleforge/core';
import { SIM_ERRORS } from './config';
import { createRelayAnswer, nodeRelayFiles, relayLogger, type RelayOptions } from './relay-files';
import { startSimEndpoint } from './server';
import type { SimEndpoint } from './types';

/** The model id a relay serves unless told otherwise. */
export const DEFAULT_RELAY_MODEL = 'relay';

export interface RelayEndpointOptions extends RelayOptions {
  /** The one model id it serves (default `relay`). */
  model?: string;
  /** 0 = a free port (default). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** `: keep-alive` comments while a stream waits for its reply, ms (default 10 000). */
  keep_alive_ms?: number;
}

/**
 * Starts a sim endpoint with one model whose every answer comes from a file someone writes (see
 * createRelayAnswer): no timing of its own, never cut at max_tokens. Creates `dir` when missing; throws
 * SIM_RELAY_DIR_UNUSABLE when it cannot write there, SIM_LISTEN_FAILED when the port cannot be bound.
 */
export async function startRelayEndpoint(options: RelayEndpointOptions): Promise<SimEndpoint> {
  const model = options.model ?? DEFAULT_RELAY_MODEL;
  try {
    await (options.files ?? nodeRelayFiles).ensureDir(options.dir);
    await relayLogger(options)(`relay started: model ${model}`);
  } catch (error) {
    throw tableError(SIM_ERRORS, 'SIM_RELAY_DIR_UNUSABLE', `${options.dir}: cannot write the relay's requests there: ${(error as Error).message}`, { cause: error });
  }
  return startSimEndpoint({
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.host !== undefined ? { host: options.host } : {}),
    models: [
      {
        id: model,
        first_token_base_ms: 0,
        prefill_tps: 1e9,
        decode_tps: 1e9,
        tokens_per_event: 16,
        keep_alive_ms: options.keep_alive_ms ?? 10_000,
        cut_at_max_tokens: false,
        answer: createRelayAnswer(options),
      },
    ],
  });
}
