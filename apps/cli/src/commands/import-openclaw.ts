import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { importOpenClaw } from '@crucibleforge/runner';
import { parseCommandArgs } from '../args';
import { EXIT, UsageError, type CliIO, type CommandModule } from '../io';
import { locateConfig, withRunnerErrors } from '../runner-context';

const usage = `Usage: crucibleforge import-openclaw [path] [--config PATH] [--dry-run]

Imports OpenAI-compatible providers and their models (prices, context length) from OpenClaw's
configuration (JSON5) into models.yaml, keeping what the file already holds, comments included.

  path            OpenClaw config (default: $OPENCLAW_CONFIG_PATH, $OPENCLAW_STATE_DIR/openclaw.json,
                  else ~/.openclaw/openclaw.json)
  --config PATH   the models.yaml to write (default: the one in use, else ./models.yaml; created if missing)
  --dry-run       print the result instead of writing it

API keys are never copied: "\${VAR}" keys become api_key_env: VAR; for a literal key the output names the
variable to set. Imported models start disabled (enabled: false), so no run pays for them by surprise.
`;

const options = { config: { type: 'string' }, 'dry-run': { type: 'boolean' } } as const;

function openClawPath(io: CliIO, positional: string | undefined): string {
  if (positional) return resolve(io.cwd, positional);
  if (io.env['OPENCLAW_CONFIG_PATH']) return resolve(io.cwd, io.env['OPENCLAW_CONFIG_PATH']);
  if (io.env['OPENCLAW_STATE_DIR']) return join(resolve(io.cwd, io.env['OPENCLAW_STATE_DIR']), 'openclaw.json');
  const home = io.env['OPENCLAW_HOME'] || io.env['HOME'];
  if (!home) throw new UsageError('cannot find the OpenClaw config (HOME is unset); pass its path');
  return join(home, '.openclaw', 'openclaw.json');
}

async function readIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

export const command: CommandModule = {
  usage,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, options);
    if (positionals.length > 1) throw new UsageError('give at most one OpenClaw config path');
    return withRunnerErrors(io, 'import-openclaw', async () => {
      const source = openClawPath(io, positionals[0]);
      const text = await readIfExists(source);
      if (text === null) {
        io.stderr.write(`crucibleforge import-openclaw: ${source} does not exist (pass the path of openclaw.json)\n`);
        return EXIT.usage;
      }
      const located = await locateConfig(io, values.config);
      const target = located.path ?? join(io.cwd, 'models.yaml');
      const existing = await readIfExists(target);
      const result = importOpenClaw(text, { source, existing, existingFile: target });
      const out = [...result.summary];
      if (values['dry-run']) {
        io.stdout.write(`${out.join('\n')}\n\n${result.text}`);
        return EXIT.ok;
      }
      if (result.providers.length + result.models.length > 0) {
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, result.text);
        out.push(`${existing === null ? 'created' : 'updated'} ${target}; set enabled: true on the models you want to run`);
      }
      io.stdout.write(`${out.join('\n')}\n`);
      return EXIT.ok;
    });
  },
};
