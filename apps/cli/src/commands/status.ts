import { applyProfile, loadCases, loadProfiles } from '@crucibleforge/cases';
import { configuredSecrets, isInProcess, listRuns, preflightModel, probeInProcess, type RunnerConfig } from '@crucibleforge/runner';
import { fetchModelIds } from '@crucibleforge/timing';
import { parseCommandArgs } from '../args';
import { EXIT, type CliIO, type CommandModule } from '../io';
import { CASES_DIR_NOT_FOUND, findCasesDir } from '../cases-dir';
import { locateConfig, redactingIO, requireConfig, resultsDirOf, withRunnerErrors } from '../runner-context';

const usage = `Usage: crucibleforge status [--no-preflight] [--config PATH] [--results DIR] [--cases DIR]

Shows the config and results in use; whether each provider answers and its API key variable is set;
per enabled model the preflight (a real streamed completion and the wrong-model check); how many
cases each profile holds; and the latest runs.

  --no-preflight   do not send the one short completion per enabled model
`;

const options = {
  'no-preflight': { type: 'boolean' },
  config: { type: 'string' },
  results: { type: 'string' },
  cases: { type: 'string' },
} as const;

async function providerLines(config: RunnerConfig, io: CliIO): Promise<string[]> {
  const lines = ['providers:'];
  for (const [name, p] of Object.entries(config.providers)) {
    if (isInProcess(p)) {
      const probe = await probeInProcess(p, []);
      lines.push(`  ${probe.listing.ok ? 'READY' : 'MISSING'} ${name} (${p.kind}) ${p.gguf}${probe.listing.ok ? ' · runs in this process' : ` · ${probe.listing.reason}`}`);
      continue;
    }
    const key = p.api_key_env ? io.env[p.api_key_env] : undefined;
    const ids = await fetchModelIds(p.base_url, { ...(key ? { apiKey: key } : {}), timeoutMs: 3000 }).catch(() => null);
    const keyText = p.api_key_env ? `key $${p.api_key_env} ${key ? 'set' : 'NOT SET'}` : 'no key';
    lines.push(`  ${ids ? 'UP  ' : 'DOWN'} ${name} (${p.kind}) ${p.base_url} · concurrency ${p.concurrency ?? 'default'} · ${keyText}${ids ? ` · ${ids.length} models listed` : ''}`);
  }
  return lines;
}

async function modelLines(config: RunnerConfig, io: CliIO, preflight: boolean): Promise<string[]> {
  const lines = ['models:'];
  for (const [label, m] of Object.entries(config.models)) {
    let state = m.enabled ? '' : ' (disabled)';
    if (m.enabled && preflight) {
      try {
        const r = await preflightModel({ config, label, env: io.env, signal: io.signal });
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
  const cases = await loadCases(casesDir);
  if (!cases.ok) return [`cases: ${casesDir} has ${cases.problems.length} problems (crucibleforge cases verify)`];
  const profiles = await loadProfiles(casesDir);
  const lines = [`cases: ${cases.cases.length} in ${casesDir}`];
  if (profiles.ok) {
    for (const p of profiles.profiles) {
      let count: string;
      try {
        count = String(applyProfile(p, cases.cases).length);
      } catch (error) {
        count = `invalid (${error instanceof Error ? error.message : String(error)})`;
      }
      lines.push(`  profile ${p.name}: ${count} cases${p.description ? ` — ${p.description}` : ''}`);
    }
  }
  return lines;
}

export const command: CommandModule = {
  usage,
  async run(args, io) {
    const { values } = parseCommandArgs(args, options, false);
    return withRunnerErrors(io, 'status', async () => {
      const located = await locateConfig(io, values.config);
      const resultsDir = resultsDirOf(io, values.results);
      const out: string[] = [`config: ${located.path ?? `none found (looked at ${located.searched.join(', ')}); crucibleforge config --init`}`];
      out.push(`results: ${resultsDir}`);
      if (located.path) {
        const config = await requireConfig(io, values.config);
        // A preflight error may echo the key the endpoint was sent: the output never shows it.
        io = redactingIO(io, configuredSecrets(config, io.env));
        out.push(...(await providerLines(config, io)), ...(await modelLines(config, io, !values['no-preflight'])));
      }
      const casesDir = findCasesDir(io, values.cases);
      out.push(...(casesDir ? await profileLines(casesDir) : [`cases: ${CASES_DIR_NOT_FOUND}`]));
      const runs = (await listRuns(resultsDir)).slice(-5);
      if (runs.length > 0) out.push('latest runs:');
      for (const r of runs) {
        out.push(`  ${r.run_id} · ${r.profile} · ${r.models.join(', ')} · ${r.done}/${r.total} done, ${r.passes} passed${r.pending_judge ? `, ${r.pending_judge} wait for the judge` : ''}${r.complete ? '' : ' (unfinished)'}`);
      }
      io.stdout.write(`${out.join('\n')}\n`);
      return located.path ? EXIT.ok : EXIT.failed;
    });
  },
};
