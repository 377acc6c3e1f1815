import type { SpeedSummary } from '@crucibleforge/core';
import { readGgufInfo, runSpeedBenchmark, speedRequestPlan, type SpeedSettings } from '@crucibleforge/speed';
import type { TimedCompleter } from '@crucibleforge/timing';
import type { ResolvedModel } from './config';
import { isInProcess } from './config-schema';
import { caseUpperBound, type BudgetLedger } from './cost';
import type { RunEvent } from './events';
import { writeRunSpeed } from './speed-store';
import type { ResolvedWorld } from './world';

export interface SpeedStep {
  runId: string;
  resultsDir: string;
  settings: SpeedSettings;
  world: ResolvedWorld;
  ledger: BudgetLedger;
  emit: (event: RunEvent) => void;
  redact: (text: string) => string;
}

/**
 * Measures one model's speed with its own client (after its preflight, before its cases) and stores the report
 * in the run's speed.json. A priced model reserves the measurement's upper bound on the budget first. Never
 * throws for a failed measurement: the model's cases run anyway, and a notice says why there is no speed.
 */
export async function measureModelSpeed(step: SpeedStep, resolved: ResolvedModel, client: TimedCompleter, apiKey: string | undefined, signal: AbortSignal): Promise<void> {
  const notice = (message: string) => step.emit({ type: 'notice', model: resolved.label, message });
  const plan = speedRequestPlan(step.settings);
  const bound = caseUpperBound({ model: resolved.label, prices: resolved.prices, prompt_chars: plan.max_prompt_chars, max_tokens: step.settings.maxTokens ?? 256, retry_max_tokens: 0, turns: plan.requests, speed: true });
  if (!step.ledger.tryReserve(bound)) {
    notice(`speed not measured: its ${plan.requests} requests could cost up to $${bound.toFixed(4)}, which would pass the budget`);
    return;
  }
  try {
    const report = await runSpeedBenchmark({
      ...step.settings,
      completer: client,
      model: resolved.model.id,
      // an in-process model has no endpoint: the report names its GGUF, no metadata is asked
      ...(isInProcess(resolved.provider)
        ? {
            endpointLabel: resolved.provider.base_url,
            providerKind: 'llamacpp' as const,
            metadata: false,
            gguf: step.settings.gguf ?? (await readGgufInfo(resolved.provider.gguf).catch(() => null)),
          }
        : { baseUrl: resolved.provider.base_url, providerKind: resolved.provider.kind }),
      reasoning: resolved.model.reasoning,
      ...(apiKey ? { apiKey } : {}),
      ...(step.world.fetch ? { fetch: step.world.fetch } : {}),
      clock: step.world.clock,
      random: step.world.random,
      now: step.world.now,
      signal,
    });
    const clean = JSON.parse(step.redact(JSON.stringify(report))) as typeof report;
    await writeRunSpeed(step.resultsDir, step.runId, resolved.label, clean);
    const summary: SpeedSummary = { ...clean.summary, model: resolved.label };
    step.emit({ type: 'speed', model: resolved.label, summary, requests: plan.requests, failures: clean.failures, warnings: clean.warnings });
  } catch (error) {
    if (!signal.aborted) notice(`speed not measured: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    step.ledger.settle(bound, resolved.prices ? bound : null);
  }
}
