import { makeRedactor, redactDeep } from '@crucibleforge/core';
import { BudgetLedger } from './cost';
import type { CaseDriver } from './driver';
import { EventChannel, type ModelOutcome, type RunEvent, type RunSummary } from './events';
import { RunGate } from './gate';
import { runModel } from './model-run';
import { planApiKey, type PlannedModel, type RunPlan } from './plan';
import { loadRun, missingKeys, RunLog, writeManifest } from './storage';
import type { RunRow } from './storage-types';
import type { ResolvedWorld } from './world';

/** A run in progress. Iterate `events` (any number of times; each sees everything), await `done`. */
export interface RunHandle {
  runId: string;
  plan: RunPlan;
  events: AsyncIterable<RunEvent>;
  done: Promise<RunSummary>;
  /** Stops starting cases and aborts requests in flight; finished rows stay, `--resume` continues. */
  stop(reason?: string): void;
}

/** Summarises a run from its stored rows (what is on disk is the truth). */
export async function summarizeRun(resultsDir: string, runId: string, resumed: boolean, outcomes: ModelOutcome[] = []): Promise<RunSummary> {
  const run = await loadRun(resultsDir, runId);
  const rows = run.rows;
  const count = (status: RunRow['grade']['status']) => rows.filter((r) => r.grade.status === status).length;
  const missing = missingKeys(run.manifest, rows);
  const total = run.manifest.models.length * run.manifest.cases.length;
  const models: ModelOutcome[] = run.manifest.models.map((m) => {
    const mine = rows.filter((r) => r.model === m.label);
    const session = outcomes.find((o) => o.model === m.label);
    return {
      model: m.label,
      done: mine.length - mine.filter((r) => r.grade.status === 'error' && r.error_class !== undefined).length,
      total: run.manifest.cases.length,
      passes: mine.filter((r) => r.grade.status === 'pass').length,
      cost_usd: mine.reduce((s, r) => s + (r.cost_usd ?? 0), 0),
      stopped: session?.stopped ?? null,
      aborted: mine.filter((r) => r.error_class === 'aborted').length,
    };
  });
  return {
    run_id: runId,
    dir: run.dir,
    resumed,
    total,
    done: total - missing.length,
    passes: count('pass'),
    failures: count('fail'),
    errors: count('error'),
    skipped: count('skipped'),
    pending_judge: count('pending'),
    overflows: {
      happened: rows.filter((r) => r.overflow?.happened).length,
      recovered: rows.filter((r) => r.overflow?.happened && r.overflow.recovered).length,
    },
    cost_usd: Math.round(rows.reduce((s, r) => s + (r.cost_usd ?? 0), 0) * 1e8) / 1e8,
    models,
    complete: missing.length === 0,
  };
}

/** Models of one provider run one after another (a local server holds one model); providers run side by side. */
function byProvider(models: PlannedModel[]): PlannedModel[][] {
  const groups = new Map<string, PlannedModel[]>();
  for (const m of models) groups.set(m.resolved.providerName, [...(groups.get(m.resolved.providerName) ?? []), m]);
  return [...groups.values()];
}

/** Starts a planned run. Rows are appended and fsynced as each case finishes. */
export interface StartOptions {
  /** `full` = the recover ladder (reasoning off, then "final answer now"). Default `reasoning-off`. */
  ladder?: 'reasoning-off' | 'full';
  /** Aborting it stops the run as `stop('interrupted')` does (Ctrl-C): cases in flight end, what finished is kept. */
  signal?: AbortSignal;
}

export function startRun(plan: RunPlan, driver: CaseDriver, world: ResolvedWorld, toolVersion: string, options: StartOptions = {}): RunHandle {
  const channel = new EventChannel<RunEvent>();
  const controller = new AbortController();
  const interrupt = () => controller.abort(new Error('interrupted'));
  if (options.signal?.aborted) interrupt();
  options.signal?.addEventListener('abort', interrupt, { once: true });
  // The one choke point for endpoint text (error messages, reasons, notices): no key reaches an event,
  // a stored record or the summary, even when a server echoes the Authorization header back.
  const redact = makeRedactor([...world.secrets, ...plan.models.map((m) => planApiKey(plan, m.resolved.label))]);
  const emit = (event: RunEvent) => channel.push(redactDeep(event, redact));
  const started = world.clock.now();
  let done = plan.alreadyDone;
  let passes = plan.prior.passes;
  let cost = plan.prior.cost_usd;
  let doneThisSession = 0;
  let completionTokens = 0;

  const onRow = (row: RunRow) => {
    if (!(row.grade.status === 'error' && row.error_class !== undefined)) done += 1;
    doneThisSession += 1;
    if (row.grade.status === 'pass') passes += 1;
    cost += row.cost_usd ?? 0;
    completionTokens += row.usage.completion_tokens ?? 0;
    const elapsed = (world.clock.now() - started) / 1000;
    const remaining = Math.max(0, plan.total - done);
    emit({
      type: 'progress',
      done,
      total: plan.total,
      passes,
      tokens_per_s: elapsed > 0 ? completionTokens / elapsed : null,
      cost_usd: Math.round(cost * 1e8) / 1e8,
      eta_s: doneThisSession > 0 && elapsed > 0 ? (remaining * elapsed) / doneThisSession : null,
    });
  };

  const finished = (async (): Promise<RunSummary> => {
    if (plan.fresh) await writeManifest(plan.resultsDir, plan.manifest);
    const log = await RunLog.open(plan.resultsDir, plan.runId);
    try {
      await log.append({ kind: 'session', event: 'start', at: world.now().toISOString(), resumed: plan.resumed, tool_version: toolVersion });
      emit({
        type: 'run-start',
        run_id: plan.runId,
        dir: plan.dir,
        resumed: plan.resumed,
        models: plan.models.map((m) => m.resolved.label),
        total: plan.total,
        already_done: plan.alreadyDone,
      });
      emit({ type: 'progress', done, total: plan.total, passes, tokens_per_s: null, cost_usd: Math.round(cost * 1e8) / 1e8, eta_s: null });
      const ledger = new BudgetLedger(plan.budgetUsd, plan.prior.cost_usd);
      const redactedLog = { append: (record: Parameters<RunLog['append']>[0]) => log.append(redactDeep(record, redact)) };
      const speed = plan.speed && plan.speed.models.length > 0
        ? { step: { runId: plan.runId, resultsDir: plan.resultsDir, settings: plan.speed.settings, world, ledger, emit, redact }, models: plan.speed.models }
        : null;
      const shared = { runId: plan.runId, driver, world, log: redactedLog, ledger, emit, onRow, runSignal: controller.signal, ladder: options.ladder ?? 'reasoning-off', speed, gate: new RunGate() };
      const outcomes = (
        await Promise.all(
          byProvider(plan.models).map(async (group) => {
            const results: ModelOutcome[] = [];
            for (const m of group) results.push(await runModel(shared, m, planApiKey(plan, m.resolved.label)));
            return results;
          }),
        )
      ).flat();
      await log.append({ kind: 'session', event: 'end', at: world.now().toISOString(), resumed: plan.resumed, tool_version: toolVersion });
      await log.close();
      const summary = redactDeep(await summarizeRun(plan.resultsDir, plan.runId, plan.resumed, outcomes), redact);
      emit({ type: 'run-end', summary });
      return summary;
    } catch (error) {
      await log.close().catch(() => undefined);
      throw error;
    } finally {
      options.signal?.removeEventListener('abort', interrupt);
      channel.close();
    }
  })();
  finished.catch(() => channel.close());

  return {
    runId: plan.runId,
    plan,
    events: channel,
    done: finished,
    stop: (reason = 'stopped') => controller.abort(new Error(reason)),
  };
}
