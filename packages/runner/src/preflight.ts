import { PREFLIGHT_PROMPT } from '@crucibleforge/core';
import type { TimedCompleter } from '@crucibleforge/timing';
import type { ResolvedModel } from './config';
import { wrongModelReason, type VerifyMode } from './guard';
import { completeWhole } from './client';
import { withRetries, type AttemptTrace, type EndpointErrorClass, type RetryPolicy, type RetryWorld } from './retry';

export type PreflightResult =
  | {
      ok: true;
      served_model: string | null;
      /** The model reasons (configured on, or it sent reasoning text/tokens on an auto model). */
      reasoning: boolean;
      ttft_s: number | null;
      message: string;
    }
  | { ok: false; wrongModel: boolean; served_model: string | null; message: string; errorClass: EndpointErrorClass | null; trace: AttemptTrace | null };

/**
 * The data-channel check: a real streamed completion (not just GET /models), the wrong-model guard, and
 * whether an `auto` model thinks.
 */
export async function preflight(
  resolved: ResolvedModel,
  client: TimedCompleter,
  verify: VerifyMode,
  retry: RetryPolicy,
  world: RetryWorld,
): Promise<PreflightResult> {
  const mode = resolved.model.reasoning;
  const attempted = await withRetries(
    () =>
      completeWhole(client, {
        messages: [{ role: 'user', content: PREFLIGHT_PROMPT }],
        max_tokens: Math.min(resolved.model.max_tokens ?? 512, 512),
        temperature: 0,
        reasoning: mode,
        ...(world.signal ? { signal: world.signal } : {}),
      }),
    retry,
    world,
  );
  if (!attempted.ok) {
    return {
      ok: false,
      wrongModel: false,
      served_model: null,
      message: `${resolved.provider.base_url} did not complete a streamed request (${attempted.failure.errorClass}${attempted.attempts > 1 ? `, ${attempted.attempts} attempts` : ''}): ${attempted.failure.message}`,
      errorClass: attempted.failure.errorClass,
      trace: attempted,
    };
  }
  const { reply, served_model, ttft_s } = attempted.value;
  const served = served_model ?? reply.model;
  const wrong = wrongModelReason(verify, resolved.model.id, served);
  if (wrong) return { ok: false, wrongModel: true, served_model: served, message: wrong, errorClass: null, trace: null };
  if (reply.content.trim() === '' && reply.reasoning.trim() === '' && reply.tool_calls.length === 0) {
    return { ok: false, wrongModel: false, served_model: served, message: 'the stream completed but carried no tokens', errorClass: null, trace: null };
  }
  const thinks = reply.reasoning.trim() !== '' || (reply.usage.reasoning_tokens ?? 0) > 0;
  const reasoning = mode === 'on' || (mode === 'auto' && thinks);
  return {
    ok: true,
    served_model: served,
    reasoning,
    ttft_s,
    message: `${served ?? resolved.model.id} answered in ${ttft_s === null ? '?' : ttft_s.toFixed(2)} s${reasoning ? ' (reasoning)' : ''}`,
  };
}
