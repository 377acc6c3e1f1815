import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { configSummary, configSummaryText } from '@crucibleforge/report';
import { exampleConfig, loadConfig } from '@crucibleforge/runner';
import { parseCommandArgs } from '../args';
import { EXIT, type CommandModule } from '../io';
import { configNotFound, locateConfig, withRunnerErrors } from '../runner-context';

const usage = `Usage: crucibleforge config [--init] [--config PATH]

Without --init: prints the models.yaml in use and checks it (file, line and field of any problem).
Search order: --config PATH, $CRUCIBLEFORGE_CONFIG, ./models.yaml, then the user config dir
($XDG_CONFIG_HOME/crucibleforge/models.yaml or ~/.config/crucibleforge/models.yaml).

  --init          write a commented example (LM Studio on localhost:1234 enabled; Ollama, llama.cpp,
                  vLLM, OpenRouter and DeepSeek commented out) to --config PATH or ./models.yaml;
                  never overwrites an existing file
  --config PATH   the models.yaml to use or create
  --json          print { path, providers, models, enabled, judge } on stdout
`;

const options = { init: { type: 'boolean' }, config: { type: 'string' }, json: { type: 'boolean' } } as const;

export const command: CommandModule = {
  usage,
  async run(args, io) {
    const { values } = parseCommandArgs(args, options, false);
    return withRunnerErrors(io, 'config', async () => {
      if (values.init) {
        const target = resolve(io.cwd, values.config ?? io.env['CRUCIBLEFORGE_CONFIG'] ?? 'models.yaml');
        await mkdir(dirname(target), { recursive: true });
        try {
          await writeFile(target, exampleConfig(), { flag: 'wx' });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
          io.stderr.write(`crucibleforge config: ${target} already exists; not overwriting it (edit it, or pick another --config PATH)\n`);
          return EXIT.failed;
        }
        io.stdout.write(`wrote ${target}\nedit it, then: crucibleforge status\n`);
        return EXIT.ok;
      }
      const { path, searched } = await locateConfig(io, values.config);
      if (!path) throw configNotFound(searched);
      const config = await loadConfig(path);
      io.stdout.write(values.json ? `${JSON.stringify(configSummary(path, config), null, 2)}\n` : configSummaryText(path, config));
      return EXIT.ok;
    });
  },
};
