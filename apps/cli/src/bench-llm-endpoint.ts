/** `bench-llm --list` and `bench-llm --check`: what the endpoint serves, and whether a benchmark can run. */
import { endpointConfig, preflightModel } from '@crucibleforge/runner';
import { detectSandbox } from '@crucibleforge/sandbox';
import { probeEndpoint, type ProviderKind } from '@crucibleforge/timing';
import { EXIT, type CliIO } from './io';
import { columns, modelListText, type Paint } from '@crucibleforge/report';
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

/**
 * Three checks: the endpoint lists its models, the runner's preflight (a real streamed completion and the
 * wrong-model guard) passes, and the sandbox the code test needs is usable. Exit 0 when all hold, 1 when
 * the endpoint fails, 3 when only the sandbox is missing.
 */
export async function checkSetup(o: EndpointOptions, io: CliIO, paint: Paint): Promise<number> {
  const ok = (text: string) => io.stdout.write(`  ${paint.pass('✓')} ${inert(text)}\n`);
  const bad = (text: string) => io.stdout.write(`  ${paint.fail('✗')} ${inert(text)}\n`);
  const { listing } = await probeEndpoint(o.baseUrl, { ...(o.apiKey ? { apiKey: o.apiKey } : {}) });
  let endpointOk = listing.ok;
  if (!listing.ok) bad(`endpoint ${o.baseUrl}: no answer from /models (${listing.reason}; is the server running? is --base-url right?)`);
  else ok(`endpoint ${o.baseUrl}: ${listing.ids.length} model${listing.ids.length === 1 ? '' : 's'} listed`);
  const model = o.model ?? (listing.ok ? listing.ids[0] : undefined);
  if (!endpointOk) {
    bad('streamed preflight: skipped (no endpoint)');
  } else if (!model) {
    bad('streamed preflight: the endpoint lists no model; load one or name it: bench-llm --check <model>');
    endpointOk = false;
  } else {
    const { config, label } = benchConfig(o, model);
    const r = await preflightModel({ config, label, env: io.env, signal: io.signal });
    if (r.ok) ok(`streamed preflight: ${model} answered (TTFT ${r.ttft_s === null ? '—' : `${r.ttft_s.toFixed(3)} s`}${r.reasoning ? ', reasoning' : ''})`);
    else bad(`streamed preflight: ${model}: ${r.message}`);
    endpointOk = r.ok;
  }
  const sandbox = await detectSandbox(o.bwrapPath ? { bwrapPath: o.bwrapPath } : {});
  if (sandbox.available) ok(`sandbox: bubblewrap ${sandbox.version ?? ''} at ${sandbox.bwrapPath} (the code test runs in it)`.replace('  ', ' '));
  else bad(`sandbox unavailable: ${sandbox.reason ?? 'unknown reason'} (install bubblewrap, or --allow-unsandboxed to run the code test without it, or --speed-only)`);
  if (!endpointOk) return EXIT.failed;
  return sandbox.available ? EXIT.ok : EXIT.noSandbox;
}
