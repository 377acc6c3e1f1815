import { modelsLines, probeProvider } from '@crucibleforge/runner';
import { defaultModelRoots } from '@crucibleforge/speed';
import { parseCommandArgs } from '../args';
import { EXIT, type CommandModule } from '../io';
import { requireConfig, withRunnerErrors } from '../runner-context';
import { inert } from '../output';

const usage = `Usage: crucibleforge models [--config PATH] [--offline] [--json]

Lists the models in models.yaml and the models each provider's endpoint serves, with size,
quantization and context where the server says (LM Studio, Ollama, /v1/models), and for a local
server the model's GGUF found on disk (size, quantisation, parameters, architecture, experts). An
in-process provider (kind llamacpp-inprocess) shows its GGUF file.

  --offline       only the configured models (ask no endpoint)
  --config PATH   models.yaml to use
  --json          print { providers: [{ name, kind, base_url, status, reason, served, … }], models } on stdout
`;

const options = { config: { type: 'string' }, offline: { type: 'boolean' }, json: { type: 'boolean' } } as const;

export const command: CommandModule = {
  usage,
  async run(args, io) {
    const { values } = parseCommandArgs(args, options, false);
    return withRunnerErrors(io, 'models', async () => {
      const config = await requireConfig(io, values.config);
      const ids = (name: string) => Object.values(config.models).filter((m) => m.provider === name).map((m) => m.id);
      const modelRoots = await defaultModelRoots({ home: io.env['HOME'], ollamaModels: io.env['OLLAMA_MODELS'] });
      const statuses = values.offline ? [] : await Promise.all(Object.entries(config.providers).map(([name, p]) => probeProvider(name, p, { env: io.env, ids: ids(name), modelRoots })));
      if (values.json) {
        const models = Object.entries(config.models).map(([label, m]) => ({ label, provider: m.provider, id: m.id, enabled: m.enabled, context_length: m.context_length ?? null }));
        io.stdout.write(`${JSON.stringify({ providers: statuses, models }, null, 2)}\n`);
        return EXIT.ok;
      }
      // model ids and files come from the endpoint: shown, never obeyed
      io.stdout.write(`${inert(modelsLines(config, statuses, !values.offline).join('\n'))}\n`);
      return EXIT.ok;
    });
  },
};
