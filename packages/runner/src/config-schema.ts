import { MAX_IDLE_TTL_S, MIN_IDLE_TTL_S } from '@crucibleforge/lease';
import { PROVIDER_KINDS, type ProviderKind } from '@crucibleforge/timing';
import { z } from 'zod';

/** The kinds of OpenAI-compatible servers the runner knows how to talk to: the timing client's list. */
export { PROVIDER_KINDS };
export type { ProviderKind };

/** A GGUF run in this process on llama.cpp (no server): `gguf: PATH` instead of `base_url`. */
export const IN_PROCESS_KIND = 'llamacpp-inprocess';
export type InProcessKind = typeof IN_PROCESS_KIND;
/** Every provider kind models.yaml accepts: the HTTP servers and the in-process engine. */
export type AnyProviderKind = ProviderKind | InProcessKind;

/** The endpoint identity of an in-process provider (what plans, manifests and locks key on). */
export function inProcessEndpoint(gguf: string): string {
  return `${IN_PROCESS_KIND}:${gguf}`;
}

/** Models that run on the user's own hardware: one request at a time unless `concurrency` says more slots. */
export const LOCAL_KINDS: ReadonlySet<AnyProviderKind> = new Set<AnyProviderKind>(['lmstudio', 'ollama', 'llamacpp', 'vllm', IN_PROCESS_KIND]);

const envName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name (letters, digits, _), not a key');

/** USD per million tokens. `cached_input` defaults to `input`; `reasoning` defaults to `output`. */
export const pricesSchema = z.strictObject({
  input: z.number().nonnegative(),
  cached_input: z.number().nonnegative().optional(),
  output: z.number().nonnegative(),
  reasoning: z.number().nonnegative().optional(),
});
export type Prices = z.infer<typeof pricesSchema>;

/** Request time limits in seconds; a model's override its provider's, field by field (defaults: the timing client's). */
export const timeoutsSchema = z.strictObject({
  /** Request sent → response headers (default 30). */
  connect_s: z.number().positive().optional(),
  /** Request sent → first token (default 300). A model that sends nothing for this long has stalled. */
  first_token_s: z.number().positive().optional(),
  /** Longest silence between two tokens once the stream has begun (default 120). */
  gap_s: z.number().positive().optional(),
  /** The whole request, every token included (default 1800). */
  total_s: z.number().positive().optional(),
});
export type TimeoutsConfig = z.infer<typeof timeoutsSchema>;

export const httpProviderSchema = z.strictObject({
  kind: z.enum(PROVIDER_KINDS),
  base_url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as http://localhost:1234/v1' }),
  api_key_env: envName.optional(),
  concurrency: z.int().min(1).max(256).optional(),
  prices: pricesSchema.optional(),
  /** Seconds before a request with no first token is abandoned: the same as `timeouts.first_token_s` (kept for old files). */
  timeout_s: z.number().positive().optional(),
  timeouts: timeoutsSchema.optional(),
});

/**
 * `kind: llamacpp-inprocess`: the GGUF runs in this process on llama.cpp (node-llama-cpp, CPU). `gguf` is
 * absolute or relative to models.yaml; `base_url` is derived (`llamacpp-inprocess:<path>`), never written.
 */
export const inProcessProviderSchema = z
  .strictObject({
    kind: z.literal(IN_PROCESS_KIND),
    gguf: z.string().min(1).regex(/\.gguf$/i, 'must be the path of a .gguf file'),
    /** Context window in tokens (default: the model's trained context, at most 4096). */
    context: z.int().min(256).optional(),
    /** CPU threads (default: llama.cpp's choice). */
    threads: z.int().min(1).max(512).optional(),
    /** Prompt tokens per batch (default: min(512, context)). */
    batch: z.int().min(1).optional(),
    concurrency: z.literal(1).optional(),
    prices: pricesSchema.optional(),
    timeout_s: z.number().positive().optional(),
    timeouts: timeoutsSchema.optional(),
  })
  .transform((p) => ({ ...p, base_url: inProcessEndpoint(p.gguf) }));

export const providerSchema = z.discriminatedUnion('kind', [httpProviderSchema, inProcessProviderSchema]);
export type HttpProviderConfig = z.infer<typeof httpProviderSchema>;
export type InProcessProviderConfig = z.infer<typeof inProcessProviderSchema>;
/** `api_key_env` exists on HTTP providers only; reading it on any provider is allowed. */
export type ProviderConfig = HttpProviderConfig | (InProcessProviderConfig & { api_key_env?: undefined });

export function isInProcess(provider: ProviderConfig): provider is InProcessProviderConfig & { api_key_env?: undefined } {
  return provider.kind === IN_PROCESS_KIND;
}

export const leaseSchema = z.strictObject({
  /** StudioForge lease server base URL; omit for a local lock file on this machine. */
  server: z.url({ protocol: /^https?$/ }).optional(),
  api_key_env: envName.optional(),
  /** How the key is sent: `Authorization: Bearer` (default) or `x-api-key`. */
  api_key_header: z.enum(['bearer', 'x-api-key']).optional(),
  /** Environment variable with the MCP pairing PIN (sent as X-MCP-Pin) for a lease server on another machine. */
  pin_env: envName.optional(),
  devices: z.array(z.int().min(0)).min(1).optional(),
  /** Models the lease server should load for us (default: the model's id). */
  model_ids: z.array(z.string().min(1)).optional(),
  /** Idle seconds before the lease server drops the lease (default 300; a heartbeat every TTL/3 keeps a live run's lease). */
  idle_ttl_s: z
    .int()
    .min(MIN_IDLE_TTL_S, `must be at least ${MIN_IDLE_TTL_S} s (the heartbeat touches every TTL/3)`)
    .max(MAX_IDLE_TTL_S, `must be at most ${MAX_IDLE_TTL_S} s (a killed run would block the GPU that long)`)
    .optional(),
  priority: z.int().min(1).max(3).optional(),
  /** Seconds to keep waiting for a busy rig before giving up (default 600). */
  wait_s: z.number().positive().optional(),
});
export type LeaseConfig = z.infer<typeof leaseSchema>;

export const modelSchema = z.strictObject({
  provider: z.string().min(1),
  /** The id sent to the endpoint. */
  id: z.string().min(1),
  context_length: z.int().min(256).optional(),
  reasoning: z.enum(['auto', 'on', 'off']).default('auto'),
  /** Hard cap on the tokens requested for any one reply (default: no cap beyond the case's budget). */
  max_tokens: z.int().min(16).optional(),
  /** A reasoning model gets the case budget × this factor (default 4), capped by max_tokens. */
  reasoning_factor: z.number().min(1).max(64).default(4),
  enabled: z.boolean().default(true),
  /** Overrides the provider's prices. */
  prices: pricesSchema.optional(),
  lease: leaseSchema.optional(),
  /** Overrides the provider's `timeouts`, field by field. */
  timeouts: timeoutsSchema.optional(),
  /** strict: the reply must name exactly this id; prefix: allow a dated/aliased suffix; off. */
  verify_model: z.enum(['strict', 'prefix', 'off']).optional(),
  /** Retry a reasoning overflow once with reasoning off (default true). */
  recovery: z.boolean().default(true),
  temperature: z.number().min(0).max(2).default(0),
});
export type ModelConfig = z.infer<typeof modelSchema>;

export const judgeSchema = z.strictObject({
  /** A model label from `models`. */
  model: z.string().min(1),
  samples: z.int().min(1).max(9).default(1),
  max_tokens: z.int().min(64).optional(),
  /** false: never ask the judge endpoint for json_schema structured output (for endpoints that reject it). */
  structured_output: z.boolean().optional(),
});
export type JudgeConfig = z.infer<typeof judgeSchema>;

const labelKey = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, 'labels use letters, digits and . _ : -');

export const configSchema = z.strictObject({
  version: z.literal(1).optional(),
  providers: z.record(labelKey, providerSchema as z.ZodType<ProviderConfig>).default({}),
  models: z.record(labelKey, modelSchema).default({}),
  judge: judgeSchema.optional(),
});
export type RunnerConfigData = z.infer<typeof configSchema>;
