import { modelsView, probeProvider } from '@crucibleforge/runner';
import { parseCommandArgs } from '../args';
import { EXIT, type CommandModule } from '../io';
import { requireConfig, withRunnerErrors } from '../runner-context';

const usage = `Usage: crucibleforge models [--config PATH] [--offline]

Lists the models in models.yaml and the models each provider's endpoint serves, with size,
quantization and context where the server says (LM Studio, Ollama, /v1/models).

  --offline       only the configured models (ask no endpoint)
  --config PATH   models.yaml to use
`;

const options = { config: { type: 'string' }, offline: { type: 'boolean' } } as const;

function size(info: { parameter_size: string | null; size_bytes: number | null; quantization: string | null; max_context?: number | null; state?: string | null }): string {
  const parts: string[] = [];
  if (info.parameter_size) parts.push(info.parameter_size);
  if (info.size_bytes) parts.push(`${(info.size_bytes / 2 ** 30).toFixed(1)} GiB`);
  if (info.quantization) parts.push(info.quantization);
  if (info.max_context) parts.push(`ctx ${info.max_context}`);
  if (info.state) parts.push(info.state);
  return parts.join(', ');
}

export const command: CommandModule = {
  usage,
  async run(args, io) {
    const { values } = parseCommandArgs(args, options, false);
    return withRunnerErrors(io, 'models', async () => {
      const config = await requireConfig(io, values.config);
      const statuses = values.offline ? [] : await Promise.all(Object.entries(config.providers).map(([name, p]) => probeProvider(name, p, { env: io.env })));
      const view = modelsView(config, statuses);
      const lines: string[] = [];
      for (const [name, provider] of Object.entries(config.providers)) {
        const status = statuses.find((p) => p.name === name);
        lines.push(`${name} (${provider.kind}, ${provider.base_url})${status?.status === 'down' ? `\n  (endpoint did not answer: ${status.reason})` : ''}`);
        for (const m of view.configured.filter((c) => c.provider === name)) {
          const mark = m.availability === 'listed' ? '*' : m.availability === 'missing' ? '!' : ' ';
          const facts = size({ ...m, ...status?.served.find((s) => s.id === m.model_id) });
          lines.push(
            `  ${mark} ${m.label} → ${m.model_id}${m.enabled ? '' : ' (disabled)'}${m.context_length ? `, ctx ${m.context_length}` : ''}` +
              `${m.prices ? `, $${m.prices.input}/$${m.prices.output} per M` : ''}${facts ? ` [${facts}]` : ''}${mark === '!' ? ' — not served by the endpoint' : ''}`,
          );
        }
        for (const d of view.discovered.filter((x) => x.provider === name)) lines.push(`    ${d.id} (not configured)${size(d) ? ` [${size(d)}]` : ''}`);
      }
      if (!values.offline) lines.push('', '* served by its endpoint   ! configured but not served');
      io.stdout.write(`${lines.join('\n')}\n`);
      return EXIT.ok;
    });
  },
};
