import { apiKeyFor, isInProcess, probeInProcess, resolveModel } from '@crucibleforge/runner';
import { listModelMetadata, type GgufInfo, type ModelInfo } from '@crucibleforge/timing';
import { discoverAll, formatParams, ggufSummary } from '../host-roofline';
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
  --json          print { providers: [{ name, kind, base_url, answered, models, unconfigured }] } on stdout
`;

const options = { config: { type: 'string' }, offline: { type: 'boolean' }, json: { type: 'boolean' } } as const;

function size(info: ModelInfo | undefined): string {
  if (!info) return '';
  const parts: string[] = [];
  if (info.parameter_size) parts.push(info.parameter_size);
  else if (info.parameter_count) parts.push(formatParams(info.parameter_count));
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
      const data: unknown[] = [];
      for (const [providerName, provider] of Object.entries(config.providers)) {
        const configured = Object.entries(config.models).filter(([, m]) => m.provider === providerName);
        lines.push(`${providerName} (${provider.kind}, ${provider.base_url})`);
        let served: ModelInfo[] | null = null;
        let files = new Map<string, { info: GgufInfo; location: { path: string } }>();
        if (isInProcess(provider)) {
          const probe = await probeInProcess(provider, configured.map(([, m]) => m.id));
          served = probe.listing.ok ? probe.metadata.models : null;
          if (!probe.listing.ok) lines.push(`  (GGUF not readable: ${probe.listing.reason})`);
        } else if (!values.offline) {
          let apiKey: string | undefined;
          try {
            apiKey = configured[0] ? apiKeyFor(resolveModel(config, configured[0][0]), io.env) : provider.api_key_env ? io.env[provider.api_key_env] : undefined;
          } catch {
            apiKey = undefined;
          }
          const meta = await listModelMetadata(provider.base_url, { ...(apiKey ? { apiKey } : {}) });
          served = meta.sources.length > 0 ? meta.models : null;
          if (!served) lines.push('  (endpoint did not answer)');
          else files = await discoverAll(io, served, { baseUrl: provider.base_url, providerKind: provider.kind, apiKey });
        }
        const file = (id: string) => {
          const hit = files.get(id);
          return hit ? ` {GGUF ${hit.location.path}: ${ggufSummary(hit.info)}}` : '';
        };
        const servedIds = new Set((served ?? []).map((m) => m.id));
        for (const [label, m] of configured) {
          const info = served?.find((s) => s.id === m.id);
          const mark = served === null ? ' ' : servedIds.has(m.id) ? '*' : '!';
          const price = m.prices ?? provider.prices;
          lines.push(
            `  ${mark} ${label} → ${m.id}${m.enabled ? '' : ' (disabled)'}${m.context_length ? `, ctx ${m.context_length}` : ''}` +
              `${price ? `, $${price.input}/$${price.output} per M` : ''}${info ? ` [${size(info)}]` : ''}${file(m.id)}${mark === '!' ? ' — not served by the endpoint' : ''}`,
          );
        }
        const unconfigured = (served ?? []).filter((info) => !configured.some(([, m]) => m.id === info.id));
        for (const info of unconfigured) lines.push(`    ${info.id} (not configured)${size(info) ? ` [${size(info)}]` : ''}${file(info.id)}`);
        const ggufOf = (id: string) => {
          const hit = files.get(id);
          return hit ? { path: hit.location.path, info: hit.info } : null;
        };
        data.push({
          name: providerName,
          kind: provider.kind,
          base_url: provider.base_url,
          answered: values.offline && !isInProcess(provider) ? null : served !== null,
          models: configured.map(([label, m]) => ({ label, id: m.id, enabled: m.enabled, context_length: m.context_length ?? null, served: served === null ? null : servedIds.has(m.id), info: served?.find((s) => s.id === m.id) ?? null, gguf: ggufOf(m.id) })),
          unconfigured: unconfigured.map((info) => ({ ...info, gguf: ggufOf(info.id) })),
        });
      }
      if (values.json) {
        io.stdout.write(`${JSON.stringify({ providers: data }, null, 2)}\n`);
        return EXIT.ok;
      }
      if (!values.offline) lines.push('', '* served by its endpoint   ! configured but not served');
      // model ids and files come from the endpoint: shown, never obeyed
      io.stdout.write(`${inert(lines.join('\n'))}\n`);
      return EXIT.ok;
    });
  },
};
