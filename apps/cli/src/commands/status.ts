import { configuredSecrets, setupLines } from '@crucibleforge/runner';
import { parseCommandArgs, stringFlags } from '../args';
import { EXIT, type CommandModule } from '../io';
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
  ...stringFlags('config', 'results', 'cases'),
} as const;

export const command: CommandModule = {
  usage,
  async run(args, io) {
    const { values } = parseCommandArgs(args, options, false);
    return withRunnerErrors(io, 'status', async () => {
      const located = await locateConfig(io, values.config);
      const resultsDir = resultsDirOf(io, values.results);
      const out: string[] = [`config: ${located.path ?? `none found (looked at ${located.searched.join(', ')}); crucibleforge config --init`}`];
      out.push(`results: ${resultsDir}`);
      const config = located.path ? await requireConfig(io, values.config) : null;
      // A preflight error may echo the key the endpoint was sent: the output never shows it.
      if (config) io = redactingIO(io, configuredSecrets(config, io.env));
      const casesDir = findCasesDir(io, values.cases);
      out.push(...(await setupLines(config, casesDir, resultsDir, { env: io.env, signal: io.signal, preflight: !values['no-preflight'], noCases: CASES_DIR_NOT_FOUND })));
      io.stdout.write(`${out.join('\n')}\n`);
      return located.path ? EXIT.ok : EXIT.failed;
    });
  },
};
