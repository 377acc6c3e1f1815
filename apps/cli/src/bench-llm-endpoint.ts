/** `bench-llm --list` and `bench-llm --check`: what the endpoint serves, and whether a benchmark can run. */
import { checkEndpointSetup, endpointConfig } from '@crucibleforge/runner';
import { probeEndpoint, type ProviderKind } from '@crucibleforge/timing';
import { EXIT, type CliIO } from './io';
import { modelListText, type Paint } from '@crucibleforge/report';
import { defaultModelRoots, discoverServedGgufs } from '@crucibleforge/speed';
import { inert } from './output';

export interface EndpointOptions {
  baseUrl: string;
  apiKey: string | undefined;
  /** The variable the key was read from (the runner's config names it). */
  apiKeyEnv: string | undefined;
  providerKind: ProviderKind;
  model: string | undefined;
  bwrapPath: string | undefined;
}

/** models.yaml for the endpoint and model, in memory (the runner's endpointConfig): what bench-llm runs through the runner. */
export function benchConfig(o: EndpointOptions, model: string): ReturnType<typeof endpointConfig> {
  return endpointConfig({ baseUrl: o.baseUrl, kind: o.providerKind, apiKeyEnv: o.apiKeyEnv, model });
}

/** The models at the endpoint with what its metadata APIs tell (LM Studio, Ollama, llama.cpp), GGUF size and quantisation included. */
export async function listModels(o: EndpointOptions, io: CliIO): Promise<number> {
  const { listing, metadata: meta } = await probeEndpoint(o.baseUrl, { ...(o.apiKey ? { apiKey: o.apiKey } : {}), ...(o.model ? { model: o.model } : {}) });
  if (meta.sources.length === 0) {
    io.stderr.write(`bench-llm: cannot list models: ${listing.ok ? `${o.baseUrl} did not answer /models` : listing.reason} (is the server running?)\n`);
    return EXIT.failed;
  }
  const roots = await defaultModelRoots({ home: io.env['HOME'], ollamaModels: io.env['OLLAMA_MODELS'] });
  const files = await discoverServedGgufs(meta.models, roots, o);
  io.stdout.write(inert(modelListText(o.baseUrl, meta.sources, meta.models, files)));
  return EXIT.ok;
}

/** `--check`: the runner's endpoint setup checks (models listed, a streamed preflight, the sandbox). Exit 0 all hold, 1 the endpoint fails, 3 only the sandbox is missing. */
export async function checkSetup(o: EndpointOptions, io: CliIO, paint: Paint): Promise<number> {
  const r = await checkEndpointSetup({ ...o, env: io.env, signal: io.signal });
  for (const c of r.checks) io.stdout.write(`  ${c.ok ? paint.pass('✓') : paint.fail('✗')} ${inert(c.text)}\n`);
  if (!r.endpointOk) return EXIT.failed;
  return r.sandboxOk ? EXIT.ok : EXIT.noSandbox;
}
