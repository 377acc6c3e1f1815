import { applyProfile, loadCases, loadProfiles } from '@crucibleforge/cases';
import { configuredSecrets, isInProcess, listRuns, preflightModel, probeInProcess, type RunListing, type RunnerConfig } from '@crucibleforge/runner';
import { fetchModelIds } from '@crucibleforge/timing';
import { parseCommandArgs } from '../args';
import { EXIT, type CliIO, type CommandModule } from '../io';
import { CASES_DIR_NOT_FOUND, findCasesDir } from '../cases-dir';
import { configNotFound, locateConfig, redactingIO, requireConfig, resultsDirOf, withRunnerErrors } from '../runner-context';
import { inert } from '../output';

const usage = `Usage: crucibleforge status [--no-preflight] [--json] [--config PATH] [--results DIR] [--cases DIR]

Shows the config and results in use; whether each provider answers and its API key variable is set;
per enabled model the preflight (a real streamed completion and the wrong-model check); how many
cases each profile holds; and the latest runs.

  --no-preflight   do not send the one short completion per enabled model
  --json           print the same as one JSON object on stdout

Exit codes: 0 everything checked is up, 1 something is down (a provider, an API key variable, a
preflight, the case set), 2 no models.yaml (or an invalid one).
`;

const options = {
  'no-preflight': { type: 'boolean' },
  json: { type: 'boolean' },
  config: { type: 'string' },
  results: { type: 'string' },
  cases: { type: 'string' },
} as const;

/** `gguf`/`problem`: an in-process provider (kind llamacpp-inprocess), up when its GGUF reads. */
interface ProviderStatus { name: string; kind: string; base_url: string; concurrency: number | null; up: boolean; models_listed: number | null; api_key_env: string | null; api_key_set: boolean | null; gguf: string | null; problem: string | null }
interface ModelStatus { label: string; provider: string; id: string; enabled: boolean; context_length: number | null; reasoning: string; preflight: { ok: boolean; message: string } | null }
interface CasesStatus { dir: string | null; count: number | null; problem: string | null; profiles: { name: string; cases: number | null; problem: string | null; description: string | null }[] }

async function providerStatus(config: RunnerConfig, io: CliIO): Promise<ProviderStatus[]> {
  return Promise.all(
    Object.entries(config.providers).map(async ([name, p]): Promise<ProviderStatus> => {
      const base = { name, kind: p.kind, base_url: p.base_url, concurrency: p.concurrency ?? null };
      if (isInProcess(p)) {
        const probe = await probeInProcess(p, []);
        return { ...base, up: probe.listing.ok, models_listed: null, api_key_env: null, api_key_set: null, gguf: p.gguf, problem: probe.listing.ok ? null : probe.listing.reason };
      }
      const key = p.api_key_env ? io.env[p.api_key_env] : undefined;
      const ids = await fetchModelIds(p.base_url, { ...(key ? { apiKey: key } : {}), timeoutMs: 3000 }).catch(() => null);
      return { ...base, up: ids !== null, models_listed: ids ? ids.length : null, api_key_env: p.api_key_env ?? null, api_key_set: p.api_key_env ? Boolean(key) : null, gguf: null, problem: null };
    }),
  );
}

async function modelStatus(config: RunnerConfig, io: CliIO, preflight: boolean): Promise<ModelStatus[]> {
  const out: ModelStatus[] = [];
  for (const [label, m] of Object.entries(config.models)) {
    let check: ModelStatus['preflight'] = null;
    if (m.enabled && preflight) {
      try {
        const r = await preflightModel({ config, label, env: io.env, signal: io.signal });
        check = { ok: r.ok, message: r.message };
      } catch (error) {
        check = { ok: false, message: `not possible: ${error instanceof Error ? error.message : String(error)}` };
      }
    }
    out.push({ label, provider: m.provider, id: m.id, enabled: m.enabled, context_length: m.context_length ?? null, reasoning: m.reasoning, preflight: check });
  }
  return out;
}

async function casesStatus(casesDir: string | null): Promise<CasesStatus> {
  if (!casesDir) return { dir: null, count: null, problem: CASES_DIR_NOT_FOUND, profiles: [] };
  const cases = await loadCases(casesDir);
  if (!cases.ok) return { dir: casesDir, count: null, problem: `${cases.problems.length} problems (crucibleforge cases verify)`, profiles: [] };
  const profiles = await loadProfiles(casesDir);
  const rows: CasesStatus['profiles'] = [];
  for (const p of profiles.ok ? profiles.profiles : []) {
    try {
      rows.push({ name: p.name, cases: applyProfile(p, cases.cases).length, problem: null, description: p.description ?? null });
    } catch (error) {
      rows.push({ name: p.name, cases: null, problem: error instanceof Error ? error.message : String(error), description: p.description ?? null });
    }
  }
  const problem = profiles.ok ? null : `profiles have ${profiles.problems.length} problems`;
  return { dir: casesDir, count: cases.cases.length, problem, profiles: rows };
}

function providerLine(p: ProviderStatus): string {
  if (p.gguf !== null) return `  ${p.up ? 'READY' : 'MISSING'} ${p.name} (${p.kind}) ${p.gguf}${p.up ? ' · runs in this process' : ` · ${p.problem}`}`;
  const keyText = p.api_key_env ? `key $${p.api_key_env} ${p.api_key_set ? 'set' : 'NOT SET'}` : 'no key';
  return `  ${p.up ? 'UP  ' : 'DOWN'} ${p.name} (${p.kind}) ${p.base_url} · concurrency ${p.concurrency ?? 'default'} · ${keyText}${p.models_listed === null ? '' : ` · ${p.models_listed} models listed`}`;
}

function modelLine(m: ModelStatus): string {
  const state = !m.enabled ? ' (disabled)' : m.preflight === null ? '' : m.preflight.message.startsWith('not possible: ') ? ` · preflight ${m.preflight.message}` : ` · preflight ${m.preflight.ok ? 'ok' : 'FAILED'}: ${m.preflight.message}`;
  return `  ${m.label} → ${m.provider}/${m.id}${m.context_length ? ` · ctx ${m.context_length}` : ''} · reasoning ${m.reasoning}${state}`;
}

function casesLines(c: CasesStatus): string[] {
  if (c.dir === null || c.count === null) return [`cases: ${c.dir ? `${c.dir} has ` : ''}${c.problem}`];
  return [
    `cases: ${c.count} in ${c.dir}${c.problem ? ` (${c.problem})` : ''}`,
    ...c.profiles.map((p) => `  profile ${p.name}: ${p.cases === null ? `invalid (${p.problem})` : `${p.cases} cases`}${p.description ? ` — ${p.description}` : ''}`),
  ];
}

function runLine(r: RunListing): string {
  return `  ${r.run_id} · ${r.profile} · ${r.models.join(', ')} · ${r.done}/${r.total} done, ${r.passes} passed${r.pending_judge ? `, ${r.pending_judge} wait for the judge` : ''}${r.complete ? '' : ' (unfinished)'}`;
}

/** What is down, one phrase each (empty: everything checked is up). */
function downList(providers: ProviderStatus[], models: ModelStatus[], cases: CasesStatus): string[] {
  return [
    ...providers.filter((p) => !p.up).map((p) => `provider ${p.name} is ${p.gguf === null ? 'down' : 'missing its GGUF'}`),
    ...providers.filter((p) => p.api_key_set === false).map((p) => `$${p.api_key_env} is not set`),
    ...models.filter((m) => m.preflight && !m.preflight.ok).map((m) => `preflight of ${m.label} failed`),
    ...(cases.problem || cases.profiles.some((p) => p.problem) ? ['the case set has problems'] : []),
  ];
}

export const command: CommandModule = {
  usage,
  async run(args, io) {
    const { values } = parseCommandArgs(args, options, false);
    return withRunnerErrors(io, 'status', async () => {
      const located = await locateConfig(io, values.config);
      if (!located.path) throw configNotFound(located.searched);
      const resultsDir = resultsDirOf(io, values.results);
      const config = await requireConfig(io, values.config);
      // A preflight error may echo the key the endpoint was sent: the output never shows it.
      io = redactingIO(io, configuredSecrets(config, io.env));
      const providers = await providerStatus(config, io);
      const models = await modelStatus(config, io, !values['no-preflight']);
      const cases = await casesStatus(findCasesDir(io, values.cases));
      const runs = (await listRuns(resultsDir)).slice(-5);
      const down = downList(providers, models, cases);
      const judge = config.judge ? { model: config.judge.model, samples: config.judge.samples } : null;
      if (values.json) {
        io.stdout.write(`${JSON.stringify({ ok: down.length === 0, down, config: located.path, results: resultsDir, providers, models, judge, cases, runs }, null, 2)}\n`);
      } else {
        const out = [`config: ${located.path}`, `results: ${resultsDir}`, 'providers:', ...providers.map(providerLine), 'models:', ...models.map(modelLine)];
        if (judge) out.push(`judge: ${judge.model} (${judge.samples} sample${judge.samples === 1 ? '' : 's'})`);
        out.push(...casesLines(cases));
        if (runs.length > 0) out.push('latest runs:', ...runs.map(runLine));
        out.push(down.length === 0 ? 'status: everything checked is up' : `status: DOWN — ${down.join('; ')}`);
        // preflight messages and model ids come from the endpoints: shown, never obeyed
        io.stdout.write(`${inert(out.join('\n'))}\n`);
      }
      return down.length === 0 ? EXIT.ok : EXIT.failed;
    });
  },
};
