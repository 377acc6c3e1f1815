import { setMaxListeners } from 'node:events';
import pLimit from 'p-limit';
import { runCase, type ModelContext } from './case-run';
import { caseUpperBound, type BudgetLedger } from './cost';
import type { ModelClient } from './client';
import type { CaseDriver } from './driver';
import type { ModelOutcome, RunEvent } from './events';
import { verifyModeOf } from './guard';
import type { PlannedModel } from './plan';
import { preflight } from './preflight';
import type { EndpointErrorClass } from './retry';
import { sentBudget } from './case-run';
import { measureModelSpeed, type SpeedStep } from './speed-run';
import type { RunGate } from './gate';
import type { RunLog } from './storage';
import type { RunRow, StopReason } from './storage-types';
import { hexId, type HeldLease, type ResolvedWorld } from './world';

/** A model is stopped after this many endpoint failures in a row; other models go on. */
export const MAX_CONSECUTIVE_FAILURES = 3;

/** A stop caused by an endpoint fault says which: nothing answering, or a stall; other faults keep `fallback`. */
export function stopReasonOf(errorClass: EndpointErrorClass | null, fallback: StopReason): StopReason {
  if (errorClass === 'unreachable') return 'endpoint-down';
  if (errorClass === 'stall') return 'stalled';
  return fallback;
}

export interface ModelRunShared {
  runId: string;
  driver: CaseDriver;
  world: ResolvedWorld;
  log: Pick<RunLog, 'append'>;
  ledger: BudgetLedger;
  emit: (event: RunEvent) => void;
  onRow: (row: RunRow) => void;
  runSignal: AbortSignal;
  ladder: 'reasoning-off' | 'full';
  /** The speed measurement and the labels it measures (null: no speed this session). */
  speed: { step: SpeedStep; models: readonly string[] } | null;
  /** Cases pass it side by side, a speed measurement alone (so no other model is asked anything meanwhile). */
  gate: RunGate;
}

/** Runs one model's missing cases: lease, preflight, then the cases under the provider's concurrency. */
export async function runModel(shared: ModelRunShared, planned: PlannedModel, apiKey: string | undefined): Promise<ModelOutcome> {
  const { resolved } = planned;
  const { world, emit } = shared;
  const outcome: ModelOutcome = { model: resolved.label, done: 0, total: planned.todo.length, passes: 0, cost_usd: 0, stopped: null, aborted: 0 };
  if (planned.todo.length === 0) return outcome;
  emit({ type: 'model-start', model: resolved.label, cases: planned.todo.length });

  const controller = new AbortController();
  setMaxListeners(0, controller.signal); // every request in flight listens to it
  const onRunAbort = () => controller.abort(shared.runSignal.reason);
  if (shared.runSignal.aborted) onRunAbort();
  shared.runSignal.addEventListener('abort', onRunAbort, { once: true });
  const stop = async (reason: StopReason, message: string) => {
    if (outcome.stopped) return;
    outcome.stopped = { reason, message };
    // A stopped model's requests in flight are cancelled at once (their rows are marked aborted). Not at the
    // budget: the cases in flight were paid for up front (reserved) and may finish.
    if (reason !== 'budget') controller.abort(new Error(`${resolved.label} was stopped (${reason}): ${message}`));
    emit({ type: 'model-stopped', model: resolved.label, reason, message });
    await shared.log.append({ kind: 'model-stopped', model: resolved.label, reason, message, at: world.now().toISOString() });
  };
  const notice = (message: string) => emit({ type: 'notice', model: resolved.label, message });
  const retryWorld = {
    sleep: world.sleep,
    random: world.random,
    signal: controller.signal,
    onRetry: ({ attempt, waitMs, failure }: { attempt: number; waitMs: number; failure: { errorClass: string; message: string } }) =>
      notice(`${failure.errorClass} (${failure.message}); retry ${attempt} in ${(waitMs / 1000).toFixed(1)} s`),
  };

  let lease: HeldLease | null = null;
  let client: ModelClient | null = null;
  let lostStop: Promise<void> | undefined;
  const onLeaseLost = () => {
    const why = lease?.signal?.reason;
    lostStop = stop('lease-lost', `the GPU lease was lost: ${why instanceof Error ? why.message : String(why ?? 'no reason given')}`);
    lostStop.catch(() => undefined); // awaited (and so reported) in finally
    controller.abort(why ?? new Error('the GPU lease was lost'));
  };
  try {
    // A local endpoint without a lease: block still takes an implicit lock (keyed by its base_url) when a
    // lease client exists, so two runs (GUI and CLI) never drive one local GPU at once.
    if (resolved.model.lease || (resolved.local && world.acquireLease)) {
      if (!world.acquireLease) {
        await stop('lease-failed', 'the model has a lease: block but no lease client is available');
        return outcome;
      }
      try {
        lease = await world.acquireLease(resolved, controller.signal, notice);
      } catch (error) {
        const what = resolved.model.lease ? 'could not lease the GPU' : 'could not lock the local endpoint';
        await stop('lease-failed', `${what}: ${error instanceof Error ? error.message : String(error)}`);
        return outcome;
      }
      if (lease.signal?.aborted) onLeaseLost();
      else lease.signal?.addEventListener('abort', onLeaseLost, { once: true });
    }
    client = world.clientFactory(resolved, apiKey, { fetch: world.fetch, clock: world.clock });
    const verify = verifyModeOf(resolved);
    const check = await preflight(resolved, client, verify, world.retry, retryWorld);
    let contextLength = resolved.model.context_length ?? null;
    if (check.ok && contextLength === null && world.metadata) {
      contextLength = await world.metadata(resolved, apiKey).then((m) => m.context_length, () => null);
    }
    emit({
      type: 'preflight',
      model: resolved.label,
      ok: check.ok,
      served_model: check.served_model,
      reasoning: check.ok ? check.reasoning : false,
      context_length: contextLength,
      ttft_s: check.ok ? check.ttft_s : null,
      message: check.message,
    });
    if (!check.ok) {
      await stop(controller.signal.aborted ? 'stopped' : check.wrongModel ? 'wrong-model' : stopReasonOf(check.errorClass, 'preflight-failed'), check.message);
      return outcome;
    }
    if (contextLength === null && planned.todo.some((t) => t.planned.long_context)) {
      notice('context length unknown (set context_length in models.yaml); long-context cases run anyway');
    }
    const speed = shared.speed;
    const measured = client;
    if (speed?.models.includes(resolved.label)) await shared.gate.exclusive(() => measureModelSpeed(speed.step, resolved, measured, apiKey, controller.signal));
    const ctx: ModelContext = {
      runId: shared.runId,
      resolved,
      client,
      driver: shared.driver,
      sandbox: world.sandbox,
      verify,
      reasoning: check.reasoning,
      contextLength,
      retry: world.retry,
      retryWorld,
      signal: controller.signal,
      now: world.now,
      newId: () => hexId(world.random),
      ladder: shared.ladder,
    };
    let consecutive = 0;
    const limit = pLimit(resolved.concurrency);
    await Promise.all(
      planned.todo.map(({ planned: c, seed }) =>
        limit(async () => {
          if (outcome.stopped || controller.signal.aborted) return;
          const bound = caseUpperBound({
            model: resolved.label,
            prices: resolved.prices,
            prompt_chars: c.prompt_chars,
            max_tokens: sentBudget(ctx, c.max_tokens),
            retry_max_tokens: resolved.model.recovery && resolved.model.reasoning !== 'off' ? c.max_tokens : 0,
            turns: Math.max(1, c.turns),
          });
          if (!shared.ledger.tryReserve(bound)) {
            await stop('budget', `the next case could cost up to $${bound.toFixed(4)}, which would pass the budget of $${shared.ledger.limitUsd}`);
            return;
          }
          emit({ type: 'case-start', model: resolved.label, case_id: c.id, seed });
          const result = await shared.gate.shared(() => runCase(ctx, c, seed)).catch((error: unknown) => {
            shared.ledger.settle(bound, null);
            throw error;
          });
          shared.ledger.settle(bound, result.kind === 'wrong-model' ? null : result.row.cost_usd);
          if (result.kind === 'aborted') {
            await shared.log.append({ kind: 'row', row: result.row });
            outcome.aborted += 1;
            emit({ type: 'case-end', model: resolved.label, row: result.row });
            return;
          }
          if (result.kind === 'wrong-model') {
            await stop('wrong-model', result.message);
            return;
          }
          await shared.log.append({ kind: 'row', row: result.row });
          outcome.done += 1;
          if (result.row.grade.status === 'pass') outcome.passes += 1;
          outcome.cost_usd += result.row.cost_usd ?? 0;
          emit({ type: 'case-end', model: resolved.label, row: result.row });
          shared.onRow(result.row);
          if (result.endpointFailure) {
            consecutive += 1;
            if (consecutive >= MAX_CONSECUTIVE_FAILURES) {
              const last = result.failure?.errorClass ?? null;
              await stop(stopReasonOf(last, 'endpoint-failures'), `${consecutive} cases in a row failed (last: ${last ?? 'error'}): ${result.row.error_message ?? result.row.grade.reason}`);
            }
          } else if (result.row.grade.status !== 'skipped') consecutive = 0;
        }),
      ),
    );
    if (!outcome.stopped && shared.runSignal.aborted && outcome.done < outcome.total) await stop('stopped', 'stopped by the user');
    return outcome;
  } finally {
    shared.runSignal.removeEventListener('abort', onRunAbort);
    lease?.signal?.removeEventListener('abort', onLeaseLost); // our own release below also aborts it
    await lostStop;
    // An in-process engine frees its weights before the lease (and the next model) goes on.
    await client?.close?.().catch((error: unknown) => notice(`closing the model failed: ${error instanceof Error ? error.message : String(error)}`));
    if (lease) {
      await lease.release().catch((error: unknown) => notice(`releasing the lease failed: ${error instanceof Error ? error.message : String(error)}`));
    }
    emit({ type: 'model-end', outcome });
  }
}
