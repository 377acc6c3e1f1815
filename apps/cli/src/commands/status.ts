import { configuredSecrets, setupLines, setupStatus } from '@crucibleforge/runner';
import { parseCommandArgs, stringFlags } from '../args';
import { EXIT, type CommandModule } from '../io';
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
  ...stringFlags('config', 'results', 'cases'),
} as const;

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
      const status = await setupStatus(config, findCasesDir(io, values.cases), resultsDir, { env: io.env, signal: io.signal, preflight: !values['no-preflight'], noCases: CASES_DIR_NOT_FOUND });
      if (values.json) io.stdout.write(`${JSON.stringify({ config: located.path, results: resultsDir, ...status }, null, 2)}\n`);
      // preflight messages and model ids come from the endpoints: shown, never obeyed
      else io.stdout.write(`${inert([`config: ${located.path}`, `results: ${resultsDir}`, ...setupLines(status)].join('\n'))}\n`);
      return status.ok ? EXIT.ok : EXIT.failed;
    });
  },
};
