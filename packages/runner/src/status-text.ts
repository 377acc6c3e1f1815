/**
 * `crucibleforge status` as text: each provider probed (up or down, its key variable set or not), each model
 * with its preflight, the case set's profiles and the latest runs. The checks are the runner's own (probeProvider,
 * preflightModel, the case set loaded as a run loads it); the app prints the lines.
 */
import { applyProfile, isCasesError, loadCaseSet, type CaseSet } from '@crucibleforge/cases';
import { preflightModel } from './api';
import type { RunnerConfig } from './config';
import { isInProcess, type RunnerConfigData } from './config-schema';
import { modelsView, probeProvider, type ProviderStatus } from './providers';
import { listRuns } from './storage';

export interface SetupOptions {
  env: Record<string, string | undefined>;
  signal?: AbortSignal;
  /** Send one short streamed completion per enabled model. */
  preflight: boolean;
  /** What the cases line says when there is no case set (casesDir null). */
  noCases: string;
}

async function providerLines(config: RunnerConfig, o: SetupOptions): Promise<string[]> {
  const lines = ['providers:'];
  for (const [name, p] of Object.entries(config.providers)) {
    const ids = Object.values(config.models).filter((m) => m.provider === name).map((m) => m.id);
    const s = await probeProvider(name, p, { env: o.env, timeoutMs: 3000, ids });
    if (isInProcess(p)) {
      lines.push(`  ${s.status === 'up' ? 'READY' : 'MISSING'} ${name} (${p.kind}) ${p.gguf}${s.status === 'up' ? ' · runs in this process' : ` · ${s.reason}`}`);
      continue;
    }
    const keyText = s.api_key_env ? `key $${s.api_key_env} ${s.key_set ? 'set' : 'NOT SET'}` : 'no key';
    const state = s.status === 'up' ? `UP   ${name} (${p.kind}) ${p.base_url}` : `DOWN ${name} (${p.kind}) ${p.base_url}`;
    lines.push(`  ${state} · concurrency ${p.concurrency ?? 'default'} · ${keyText}${s.status === 'up' ? ` · ${s.ids.length} models listed` : ` · ${s.reason}`}`);
  }
  return lines;
}

async function modelLines(config: RunnerConfig, o: SetupOptions): Promise<string[]> {
  const lines = ['models:'];
  for (const [label, m] of Object.entries(config.models)) {
    let state = m.enabled ? '' : ' (disabled)';
    if (m.enabled && o.preflight) {
      try {
        const r = await preflightModel({ config, label, env: o.env, ...(o.signal ? { signal: o.signal } : {}) });
        state = r.ok ? ` · preflight ok: ${r.message}` : ` · preflight FAILED: ${r.message}`;
      } catch (error) {
        state = ` · preflight not possible: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    lines.push(`  ${label} → ${m.provider}/${m.id}${m.context_length ? ` · ctx ${m.context_length}` : ''} · reasoning ${m.reasoning}${state}`);
  }
  if (config.judge) lines.push(`judge: ${config.judge.model} (${config.judge.samples} sample${config.judge.samples === 1 ? '' : 's'})`);
  return lines;
}

async function profileLines(casesDir: string): Promise<string[]> {
  let set: CaseSet;
  try {
    set = await loadCaseSet(casesDir);
  } catch (error) {
    if (!isCasesError(error, 'CASES_INVALID')) throw error;
    return [`cases: ${casesDir} has ${(error.details['problems'] as unknown[]).length} problems (crucibleforge cases verify)`];
  }
  const lines = [`cases: ${set.cases.length} in ${casesDir}`];
  for (const p of set.profiles) {
    let count: string;
    try {
      count = String(applyProfile(p, set.cases).length);
    } catch (error) {
      count = `invalid (${error instanceof Error ? error.message : String(error)})`;
    }
    lines.push(`  profile ${p.name}: ${count} cases${p.description ? ` — ${p.description}` : ''}`);
  }
  return lines;
}

/**
 * The setup as `status` shows it: providers and models (with `config`), the case set's profiles (with
 * `casesDir`, else the `noCases` line) and the five latest runs in `resultsDir`.
 */
export async function setupLines(config: RunnerConfig | null, casesDir: string | null, resultsDir: string, o: SetupOptions): Promise<string[]> {
  const out = config ? [...(await providerLines(config, o)), ...(await modelLines(config, o))] : [];
  out.push(...(casesDir ? await profileLines(casesDir) : [`cases: ${o.noCases}`]));
  const runs = (await listRuns(resultsDir)).slice(-5);
  if (runs.length > 0) out.push('latest runs:');
  for (const r of runs) {
    out.push(`  ${r.run_id} · ${r.profile} · ${r.models.join(', ')} · ${r.done}/${r.total} done, ${r.passes} passed${r.pending_judge ? `, ${r.pending_judge} wait for the judge` : ''}${r.complete ? '' : ' (unfinished)'}`);
  }
  return out;
}

function size(info: { parameter_size: string | null; size_bytes: number | null; quantization: string | null; max_context?: number | null; state?: string | null }): string {
  const parts: string[] = [];
  if (info.parameter_size) parts.push(info.parameter_size);
  if (info.size_bytes) parts.push(`${(info.size_bytes / 2 ** 30).toFixed(1)} GiB`);
  if (info.quantization) parts.push(info.quantization);
  if (info.max_context) parts.push(`ctx ${info.max_context}`);
  if (info.state) parts.push(info.state);
  return parts.join(', ');
}

/**
 * `crucibleforge models`: per provider its configured models (`*` served, `!` configured but not served, with
 * size, quantization, context and prices where known) and the served ids nobody configured. `probed` false:
 * the config alone (no endpoint asked).
 */
export function modelsLines(config: RunnerConfigData, statuses: readonly ProviderStatus[], probed: boolean): string[] {
  const view = modelsView(config, statuses);
  const lines: string[] = [];
  for (const [name, provider] of Object.entries(config.providers)) {
    const status = statuses.find((p) => p.name === name);
    const down = isInProcess(provider) ? 'GGUF not readable' : 'endpoint did not answer';
    lines.push(`${name} (${provider.kind}, ${provider.base_url})${status?.status === 'down' ? `\n  (${down}: ${status.reason})` : ''}`);
    const file = (id: string) => {
      const gguf = status?.served.find((s) => s.id === id)?.gguf;
      return gguf ? ` {GGUF ${gguf.path}: ${gguf.summary}}` : '';
    };
    for (const m of view.configured.filter((c) => c.provider === name)) {
      const mark = m.availability === 'listed' ? '*' : m.availability === 'missing' ? '!' : ' ';
      const facts = size({ ...m, ...status?.served.find((s) => s.id === m.model_id) });
      lines.push(
        `  ${mark} ${m.label} → ${m.model_id}${m.enabled ? '' : ' (disabled)'}${m.context_length ? `, ctx ${m.context_length}` : ''}` +
          `${m.prices ? `, $${m.prices.input}/$${m.prices.output} per M` : ''}${facts ? ` [${facts}]` : ''}${file(m.model_id)}${mark === '!' ? ' — not served by the endpoint' : ''}`,
      );
    }
    for (const d of view.discovered.filter((x) => x.provider === name)) lines.push(`    ${d.id} (not configured)${size(d) ? ` [${size(d)}]` : ''}${file(d.id)}`);
  }
  if (probed) lines.push('', '* served by its endpoint   ! configured but not served');
  return lines;
}
