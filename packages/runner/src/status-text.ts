/**
 * `crucibleforge status` as data and as text: each provider probed (up or down, its key variable set or not), each
 * model with its preflight, the case set's profiles and the latest runs. The checks are the runner's own
 * (probeProvider, preflightModel, the case set loaded as a run loads it); the app prints the lines or the JSON.
 */
import { applyProfile, isCasesError, loadCaseSet, type CaseSet } from '@crucibleforge/cases';
import { preflightModel } from './api';
import type { RunnerConfig } from './config';
import { isInProcess, type RunnerConfigData } from './config-schema';
import { modelsView, probeProvider, type ProviderStatus } from './providers';
import { listRuns, type RunListing } from './storage';

export interface SetupOptions {
  env: Record<string, string | undefined>;
  signal?: AbortSignal;
  /** Send one short streamed completion per enabled model. */
  preflight: boolean;
  /** What the cases line says when there is no case set (casesDir null). */
  noCases: string;
}

/** One model as `status` checks it: its preflight when enabled and asked for (null otherwise). */
export interface SetupModel {
  label: string;
  provider: string;
  id: string;
  enabled: boolean;
  context_length: number | null;
  reasoning: string;
  preflight: { ok: boolean; message: string } | null;
}

/**
 * What `crucibleforge status` checks, as data (its `--json`): each provider probed, each model's preflight, the case
 * set's profiles, the latest runs; `down` names everything that is not up (empty: `ok`).
 */
export interface SetupStatus {
  ok: boolean;
  down: string[];
  providers: (ProviderStatus & { concurrency: number | null; gguf: string | null })[];
  models: SetupModel[];
  judge: { model: string; samples: number } | null;
  cases: { dir: string | null; count: number | null; problem: string | null; profiles: { name: string; cases: number | null; problem: string | null; description: string | null }[] };
  runs: RunListing[];
}

async function modelStatus(config: RunnerConfig, o: SetupOptions): Promise<SetupModel[]> {
  const out: SetupModel[] = [];
  for (const [label, m] of Object.entries(config.models)) {
    let preflight: SetupModel['preflight'] = null;
    if (m.enabled && o.preflight) {
      try {
        const r = await preflightModel({ config, label, env: o.env, ...(o.signal ? { signal: o.signal } : {}) });
        preflight = { ok: r.ok, message: r.message };
      } catch (error) {
        preflight = { ok: false, message: `not possible: ${error instanceof Error ? error.message : String(error)}` };
      }
    }
    out.push({ label, provider: m.provider, id: m.id, enabled: m.enabled, context_length: m.context_length ?? null, reasoning: m.reasoning, preflight });
  }
  return out;
}

async function casesStatus(casesDir: string | null, noCases: string): Promise<SetupStatus['cases']> {
  if (!casesDir) return { dir: null, count: null, problem: noCases, profiles: [] };
  let set: CaseSet;
  try {
    set = await loadCaseSet(casesDir);
  } catch (error) {
    if (!isCasesError(error, 'CASES_INVALID')) throw error;
    return { dir: casesDir, count: null, problem: `${(error.details['problems'] as unknown[]).length} problems (crucibleforge cases verify)`, profiles: [] };
  }
  const profiles = set.profiles.map((p) => {
    try {
      return { name: p.name, cases: applyProfile(p, set.cases).length, problem: null, description: p.description ?? null };
    } catch (error) {
      return { name: p.name, cases: null, problem: error instanceof Error ? error.message : String(error), description: p.description ?? null };
    }
  });
  return { dir: casesDir, count: set.cases.length, problem: null, profiles };
}

/** Everything `status` checks: providers and models (with `config`), the case set (with `casesDir`), the five latest runs. */
export async function setupStatus(config: RunnerConfig, casesDir: string | null, resultsDir: string, o: SetupOptions): Promise<SetupStatus> {
  const providers = await Promise.all(
    Object.entries(config.providers).map(async ([name, p]) => {
      const ids = Object.values(config.models).filter((m) => m.provider === name).map((m) => m.id);
      const s = await probeProvider(name, p, { env: o.env, timeoutMs: 3000, ids });
      return { ...s, concurrency: p.concurrency ?? null, gguf: isInProcess(p) ? p.gguf : null };
    }),
  );
  const models = await modelStatus(config, o);
  const cases = await casesStatus(casesDir, o.noCases);
  const down = [
    ...providers.filter((p) => p.status === 'down').map((p) => `provider ${p.name} is ${p.gguf === null ? 'down' : 'missing its GGUF'}`),
    ...providers.filter((p) => p.api_key_env !== null && !p.key_set).map((p) => `$${p.api_key_env} is not set`),
    ...models.filter((m) => m.preflight && !m.preflight.ok).map((m) => `preflight of ${m.label} failed`),
    ...(cases.problem || cases.profiles.some((p) => p.problem) ? ['the case set has problems'] : []),
  ];
  const judge = config.judge ? { model: config.judge.model, samples: config.judge.samples } : null;
  return { ok: down.length === 0, down, providers, models, judge, cases, runs: (await listRuns(resultsDir)).slice(-5) };
}

/** `status` as text: the providers, the models with their preflight, the case set, the latest runs and a verdict line. */
export function setupLines(s: SetupStatus): string[] {
  const out = ['providers:'];
  for (const p of s.providers) {
    if (p.gguf !== null) {
      out.push(`  ${p.status === 'up' ? 'READY' : 'MISSING'} ${p.name} (${p.kind}) ${p.gguf}${p.status === 'up' ? ' · runs in this process' : ` · ${p.reason}`}`);
      continue;
    }
    const keyText = p.api_key_env ? `key $${p.api_key_env} ${p.key_set ? 'set' : 'NOT SET'}` : 'no key';
    const state = p.status === 'up' ? `UP   ${p.name} (${p.kind}) ${p.base_url}` : `DOWN ${p.name} (${p.kind}) ${p.base_url}`;
    out.push(`  ${state} · concurrency ${p.concurrency ?? 'default'} · ${keyText}${p.status === 'up' ? ` · ${p.ids.length} models listed` : ` · ${p.reason}`}`);
  }
  out.push('models:');
  for (const m of s.models) {
    const f = m.preflight;
    const state = !m.enabled ? ' (disabled)' : f === null ? '' : f.message.startsWith('not possible: ') ? ` · preflight ${f.message}` : ` · preflight ${f.ok ? 'ok' : 'FAILED'}: ${f.message}`;
    out.push(`  ${m.label} → ${m.provider}/${m.id}${m.context_length ? ` · ctx ${m.context_length}` : ''} · reasoning ${m.reasoning}${state}`);
  }
  if (s.judge) out.push(`judge: ${s.judge.model} (${s.judge.samples} sample${s.judge.samples === 1 ? '' : 's'})`);
  const c = s.cases;
  if (c.dir === null || c.count === null) out.push(`cases: ${c.dir ? `${c.dir} has ` : ''}${c.problem}`);
  else {
    out.push(`cases: ${c.count} in ${c.dir}`);
    for (const p of c.profiles) out.push(`  profile ${p.name}: ${p.cases === null ? `invalid (${p.problem})` : `${p.cases} cases`}${p.description ? ` — ${p.description}` : ''}`);
  }
  if (s.runs.length > 0) out.push('latest runs:');
  for (const r of s.runs) {
    out.push(`  ${r.run_id} · ${r.profile} · ${r.models.join(', ')} · ${r.done}/${r.total} done, ${r.passes} passed${r.pending_judge ? `, ${r.pending_judge} wait for the judge` : ''}${r.complete ? '' : ' (unfinished)'}`);
  }
  out.push(s.ok ? 'status: everything checked is up' : `status: DOWN — ${s.down.join('; ')}`);
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
