import { readFile } from 'node:fs/promises';
import { LineCounter, parseDocument } from 'yaml';
import { tableError, type ErrorTable } from '@crucibleforge/core';
import { z } from 'zod';
import type { AnswerFn, SimEndpointOptions, SimRequestView } from './types';

/** The error codes this package throws (misconfiguration, listen failures and a relay folder it cannot write). */
export type SimErrorCode = 'SIM_CONFIG_INVALID' | 'SIM_LISTEN_FAILED' | 'SIM_RELAY_DIR_UNUSABLE';

export const SIM_ERRORS = {
  SIM_CONFIG_INVALID: { kind: 'config', retryable: false },
  SIM_LISTEN_FAILED: { kind: 'internal', retryable: false },
  SIM_RELAY_DIR_UNUSABLE: { kind: 'storage', retryable: false },
} as const satisfies ErrorTable<SimErrorCode>;

const positive = z.number().positive();
const nonNegative = z.number().nonnegative();
const count = z.number().int().nonnegative();

const answerSchema = z.strictObject({
  content: z.string().optional(),
  reasoning: z.string().optional(),
  tool_calls: z
    .array(z.strictObject({ name: z.string().min(1), arguments: z.union([z.string(), z.record(z.string(), z.unknown())]) }))
    .optional(),
});

const faultSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('status'),
    status: z.union([z.literal(401), z.literal(404), z.literal(429), z.literal(500), z.literal(503)]),
    retry_after_s: nonNegative.optional(),
    retry_after_date: z.boolean().optional(),
    message: z.string().optional(),
  }),
  z.strictObject({ kind: z.literal('reset'), after_tokens: count }),
  z.strictObject({ kind: z.literal('reset_before_response') }),
  z.strictObject({ kind: z.literal('corrupted_chunk'), after_tokens: count }),
  z.strictObject({ kind: z.literal('bad_utf8'), after_tokens: count }),
  z.strictObject({ kind: z.literal('unexpected_end'), after_tokens: count }),
  z.strictObject({ kind: z.literal('stall'), after_tokens: count, stall_ms: nonNegative }),
  z.strictObject({ kind: z.literal('malformed_chunk'), after_tokens: count }),
  z.strictObject({ kind: z.literal('not_sse') }),
]);

const isFunction = (value: unknown) => typeof value === 'function';

/** The schema of one model; `functions` admits answer/fault functions (code), not in files. */
function modelSchema(functions: boolean) {
  // YAML writes "no fault for this request" as null (`- ~`); the options type uses undefined.
  const faultList = z.array(faultSchema.nullable().optional().transform((f) => f ?? undefined));
  return z.strictObject({
    id: z.string().min(1),
    first_token_base_ms: nonNegative.optional(),
    prefill_tps: positive.optional(),
    decode_tps: positive.optional(),
    tokens_per_event: z.number().int().positive().optional(),
    reasoning_encoding: z.enum(['reasoning_content', 'reasoning', 'think_tags']).optional(),
    usage_placement: z.enum(['separate_chunk', 'finish_chunk', 'none']).optional(),
    llamacpp_timings: z.boolean().optional(),
    role_chunk: z.boolean().optional(),
    crlf: z.boolean().optional(),
    keep_alive_ms: nonNegative.optional(),
    loading_comments: count.optional(),
    respond_as: z.string().min(1).optional(),
    context_length: z.number().int().positive().optional(),
    cached_tokens: count.optional(),
    cut_at_max_tokens: z.boolean().optional(),
    answer: (functions ? z.union([answerSchema, z.custom<AnswerFn>(isFunction)]) : answerSchema).optional(),
    faults: functions
      ? z.union([faultList, z.custom<(request: SimRequestView) => unknown>(isFunction)]).optional()
      : faultList.optional(),
  });
}

function endpointSchema(functions: boolean) {
  return z
    .strictObject({
      models: z.array(modelSchema(functions)).min(1),
      port: z.number().int().min(0).max(65535).optional(),
      host: z.string().min(1).optional(),
      api_key: z.string().min(1).optional(),
    })
    .superRefine((value, ctx) => {
      const seen = new Set<string>();
      value.models.forEach((model, i) => {
        if (seen.has(model.id)) ctx.addIssue({ code: 'custom', path: ['models', i, 'id'], message: `duplicate model id "${model.id}"` });
        seen.add(model.id);
      });
    });
}

/** `models[0].decode_tps` from a zod issue path. */
function pathText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : `${out ? '.' : ''}${String(part)}`;
  return out || '(root)';
}

function validate(value: unknown, source: string, functions: boolean): SimEndpointOptions {
  const parsed = endpointSchema(functions).safeParse(value);
  if (parsed.success) return parsed.data as SimEndpointOptions;
  const problems = parsed.error.issues.map((issue) => `${pathText(issue.path)}: ${issue.message}`);
  return invalid(source, problems);
}

function invalid(source: string, problems: string[]): never {
  throw tableError(SIM_ERRORS, 'SIM_CONFIG_INVALID', `${source}: invalid sim config\n  ${problems.join('\n  ')}`, {
    details: { source, problems },
  });
}

/**
 * Validates a YAML/JSON-shaped sim config (`{models: [...], port?, host?, api_key?}`; answers and
 * faults as data, no functions). Throws CrucibleError SIM_CONFIG_INVALID naming `source` and each
 * bad field path, e.g. `sim.yaml: invalid sim config\n  models[0].decode_tps: ...`.
 */
export function parseSimConfig(value: unknown, source: string): SimEndpointOptions {
  return validate(value, source, false);
}

/**
 * Reads and validates a YAML sim config file (what `crucibleforge sim --config` serves). Throws
 * SIM_CONFIG_INVALID naming the file, and `file:line:col` for a YAML syntax error.
 */
export async function loadSimConfig(file: string): Promise<SimEndpointOptions> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw tableError(SIM_ERRORS, 'SIM_CONFIG_INVALID', `${file}: cannot read the sim config: ${(error as Error).message}`);
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, lineCounter });
  const first = doc.errors[0];
  if (first) {
    const at = lineCounter.linePos(first.pos[0]);
    throw tableError(SIM_ERRORS, 'SIM_CONFIG_INVALID', `${file}:${at.line}:${at.col}: YAML syntax error: ${first.message.split('\n')[0]}`);
  }
  return parseSimConfig(doc.toJS(), file);
}

/** Validates options passed from code (functions allowed). */
export function checkSimOptions(options: SimEndpointOptions): SimEndpointOptions {
  return validate(options, 'startSimEndpoint options', true);
}

/** Two demo models: a thinking model streaming reasoning_content, and a plain llama.cpp-style one. */
/** What `crucibleforge sim` serves without a config file. */
export const DEFAULT_SIM_CONFIG: SimEndpointOptions = {
  models: [
    {
      id: 'sim-fast',
      first_token_base_ms: 120,
      decode_tps: 90,
      reasoning_encoding: 'reasoning_content',
      context_length: 32768,
      answer: {
        reasoning: 'The user greeted me. A short, friendly reply is enough here.',
        content: 'Hello! I am sim-fast, a simulated model served by CrucibleForge.',
      },
    },
    {
      id: 'sim-plain',
      first_token_base_ms: 250,
      decode_tps: 35,
      usage_placement: 'finish_chunk',
      llamacpp_timings: true,
      context_length: 8192,
      answer: { content: 'Hello! I am sim-plain, a simulated model without a reasoning channel.' },
    },
  ],
};
