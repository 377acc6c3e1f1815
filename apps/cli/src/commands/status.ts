import { applyProfile, isCasesError, loadCaseSet, type CaseSet } from '@crucibleforge/cases';
import { configuredSecrets, listRuns, preflightModel, probeProvider, type RunnerConfig } from '@crucibleforge/runner';
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
    const s = await probeProvider(name, p, { env: io.env, timeoutMs: 3000 });
    const keyText = s.api_key_env ? `key $${s.api_key_env} ${s.key_set ? 'set' : 'NOT SET'}` : 'no key';
    const state = s.status === 'up' ? `UP   ${name} (${p.kind}) ${p.base_url}` : `DOWN ${name} (${p.kind}) ${p.base_url}`;
    lines.push(`  ${state} · concurrency ${p.concurrency ?? 'default'} · ${keyText}${s.status === 'up' ? ` · ${s.ids.length} models listed` : ` · ${s.reason}`}`);
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
