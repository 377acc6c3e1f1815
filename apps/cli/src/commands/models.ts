import { probeProvider, type ServedModel } from '@crucibleforge/runner';
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

function size(info: ServedModel | undefined): string {
  if (!info) return '';
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
      const lines: string[] = [];
      for (const [providerName, provider] of Object.entries(config.providers)) {
        const configured = Object.entries(config.models).filter(([, m]) => m.provider === providerName);
        lines.push(`${providerName} (${provider.kind}, ${provider.base_url})`);
        let served: ServedModel[] | null = null;
        if (!values.offline) {
          const probe = await probeProvider(providerName, provider, { env: io.env });
          served = probe.status === 'up' ? probe.served : null;
          if (!served) lines.push(`  (endpoint did not answer: ${probe.reason})`);
        }
        const servedIds = new Set((served ?? []).map((m) => m.id));
        for (const [label, m] of configured) {
          const info = served?.find((s) => s.id === m.id);
          const mark = served === null ? ' ' : servedIds.has(m.id) ? '*' : '!';
          const price = m.prices ?? provider.prices;
          lines.push(
            `  ${mark} ${label} → ${m.id}${m.enabled ? '' : ' (disabled)'}${m.context_length ? `, ctx ${m.context_length}` : ''}` +
              `${price ? `, $${price.input}/$${price.output} per M` : ''}${info ? ` [${size(info)}]` : ''}${mark === '!' ? ' — not served by the endpoint' : ''}`,
          );
        }
        for (const info of served ?? []) {
          if (configured.some(([, m]) => m.id === info.id)) continue;
          lines.push(`    ${info.id} (not configured)${size(info) ? ` [${size(info)}]` : ''}`);
        }
      }
      if (!values.offline) lines.push('', '* served by its endpoint   ! configured but not served');
      io.stdout.write(`${lines.join('\n')}\n`);
      return EXIT.ok;
    });
  },
};
