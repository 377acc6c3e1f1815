import { GuiError, guiBannerLines, startGuiServer } from '@crucibleforge/gui';
import { parseCommandArgs } from '../args';
import { EXIT, UsageError, type CliIO, type CommandModule } from '../io';
import { VERSION } from '../main';
import { CASES_DIR_DEFAULT, casesDirOf } from '../cases-dir';
import { leaseCacheOption, locateConfig, resultsDirOf, STORE_OPTIONS, withRunnerErrors } from '../runner-context';
import { openSandbox } from '../sandbox-open';
import { LISTEN_OPTIONS, listenFlags, serveUntilSignal } from '../serve';

const DEFAULT_PORT = 8777;

const usage = `Usage: crucibleforge gui [--port ${DEFAULT_PORT}] [--host 127.0.0.1] [--token T] [options]

Serves the web GUI until Ctrl-C: models and their endpoints, a new run with its cost estimate, the live
run (progress, log, passes, tokens/s), every run's results with 95% intervals and charts, and any case
(prompt, response, reasoning, tool calls, grader reason, judge verdict). Runs go through the same runner
and GPU lock as "crucibleforge run", so a GUI run never collides with a CLI run on the same GPU.

Options:
  --port N             port (default ${DEFAULT_PORT}; 0 picks a free one)
  --host H             address to bind (default 127.0.0.1). Any other address (0.0.0.0, a LAN address)
                       requires a token: one is generated and printed unless you give one
  --token T            require this token (16+ characters of letters, digits, . _ ~ -); also read from
                       $CRUCIBLEFORGE_GUI_TOKEN, which keeps it out of the process list
  --config FILE        models.yaml (default: $CRUCIBLEFORGE_CONFIG, ./models.yaml, the user config dir)
  --results DIR        run storage (default: $CRUCIBLEFORGE_RESULTS or ./results)
  --cases DIR          cases (default: ${CASES_DIR_DEFAULT})
  --allow-unsandboxed  grade code without bubblewrap when it is missing (unsafe)
`;

export const command: CommandModule = {
  usage,
  servesUntilSignal: true,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseCommandArgs(args, {
      ...LISTEN_OPTIONS,
      token: { type: 'string' },
      ...STORE_OPTIONS,
      cases: { type: 'string' },
      'allow-unsandboxed': { type: 'boolean' },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const listen = listenFlags(values);
    const port = listen.port ?? DEFAULT_PORT;
    const host = listen.host ?? '127.0.0.1';
    const token = values.token ?? (io.env['CRUCIBLEFORGE_GUI_TOKEN'] || undefined);

    return withRunnerErrors(io, 'gui', async () => {
      const { path: configPath, searched } = await locateConfig(io, values.config);
      const resultsDir = resultsDirOf(io, values.results);
      const casesDir = casesDirOf(io, values.cases);
      const sandbox = await openSandbox(io, { who: 'crucibleforge gui', allowUnsandboxed: values['allow-unsandboxed'] ?? false });
      let gui;
      try {
        gui = await startGuiServer({
          host,
          port,
          ...(token === undefined ? {} : { token }),
          resultsDir,
          casesDir,
          ...(configPath ? { configPath } : {}),
          env: io.env,
          toolVersion: VERSION,
          ...leaseCacheOption(io.env),
          ...(sandbox ? { world: { sandbox } } : {}),
        });
      } catch (error) {
        if (!(error instanceof GuiError)) throw error;
        if (error.code === 'GUI_TOKEN_INVALID') throw new UsageError(`--token: ${error.message}`);
        if (error.code === 'GUI_LISTEN_FAILED') {
          io.stderr.write(`crucibleforge gui: ${error.message} (try another --port, or --port 0 for a free one)\n`);
          return EXIT.failed;
        }
        throw error;
      }
      const lines = guiBannerLines(gui, { configPath: configPath ?? null, searched, resultsDir, casesDir, sandbox: Boolean(sandbox) });
      const server = gui;
      return serveUntilSignal(io, {
        banner: lines,
        stopping: 'stopping (a running run is stopped; what finished is kept and can be resumed)',
        close: () => server.close(),
        stopped: () => 'GUI stopped',
      });
    });
  },
};
