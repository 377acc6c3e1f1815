/** `bench-llm --list` and `bench-llm --check`: what the endpoint serves, and whether a benchmark can run. */
import { CrucibleError } from '@crucibleforge/core';
import { detectSandbox } from '@crucibleforge/sandbox';
import { fetchModelIds, listModelMetadata, streamChat, type ProviderKind } from '@crucibleforge/timing';
import { EXIT, type CliIO } from './io';
import { columns, formatBytes, type Paint } from './bench-llm-render';
import { discoverAll, formatParams } from './host-roofline';
import { inert } from './output';

export interface EndpointOptions {
  baseUrl: string;
  apiKey: string | undefined;
  providerKind: ProviderKind;
  model: string | undefined;
  bwrapPath: string | undefined;
}

/** The models at the endpoint with what its metadata APIs tell (LM Studio, Ollama, llama.cpp), GGUF size and quantisation included. */
export async function listModels(o: EndpointOptions, io: CliIO): Promise<number> {
  const meta = await listModelMetadata(o.baseUrl, { ...(o.apiKey ? { apiKey: o.apiKey } : {}), ...(o.model ? { model: o.model } : {}) });
  if (meta.sources.length === 0) {
    io.stderr.write(`bench-llm: cannot list models: ${o.baseUrl} did not answer /models (is the server running?)\n`);
    return EXIT.failed;
  }
  const files = await discoverAll(io, meta.models, o);
  const rows = [['MODEL', 'STATE', 'SIZE', 'QUANT', 'PARAMS', 'ARCH', 'EXPERTS', 'CONTEXT', 'GGUF']];
  for (const m of meta.models) {
    const g = files.get(m.id)?.info ?? null;
    const size = g?.file_size_bytes ?? m.size_bytes;
    const params = g?.parameter_count ?? m.parameter_count;
    const experts = g?.expert_count ?? m.expert_count;
    const used = g?.expert_used_count ?? m.expert_used_count;
    const context = m.max_context ?? g?.context_length ?? null;
    rows.push([
      m.id,
      m.state ?? '—',
      size === null ? '—' : formatBytes(size),
      g?.quantization ?? m.quantization ?? '—',
      params ? formatParams(params) : (m.parameter_size ?? '—'),
      g?.architecture ?? m.arch ?? '—',
      experts ? `${used ?? '?'}/${experts}` : '—',
      context === null ? '—' : String(context),
      files.get(m.id)?.location.path ?? '—',
    ]);
  }
  const found = files.size > 0 ? `; ${files.size} GGUF file${files.size === 1 ? '' : 's'} found on disk` : '';
  io.stdout.write(inert(`${meta.models.length} model${meta.models.length === 1 ? '' : 's'} at ${o.baseUrl} (metadata from ${meta.sources.join(', ')}${found})\n${columns(rows, '  ').join('\n')}\n`));
  return EXIT.ok;
}

/**
 * Three checks: the endpoint lists its models, a real streamed completion comes back (a server that only
 * lists models is not enough), and the sandbox the code test needs is usable. Exit 0 when all hold, 1 when
 * the endpoint fails, 3 when only the sandbox is missing.
 */
export async function checkSetup(o: EndpointOptions, io: CliIO, paint: Paint): Promise<number> {
  const ok = (text: string) => io.stdout.write(`  ${paint.pass('✓')} ${inert(text)}\n`);
  const bad = (text: string) => io.stdout.write(`  ${paint.fail('✗')} ${inert(text)}\n`);
  let endpointOk = true;
  const ids = await fetchModelIds(o.baseUrl, { ...(o.apiKey ? { apiKey: o.apiKey } : {}) });
  if (ids === null) {
    bad(`endpoint ${o.baseUrl}: no answer from /models (is the server running? is --base-url right?)`);
    endpointOk = false;
  } else {
    ok(`endpoint ${o.baseUrl}: ${ids.length} model${ids.length === 1 ? '' : 's'} listed`);
  }
  const model = o.model ?? ids?.[0];
  if (!endpointOk) {
    bad('streamed preflight: skipped (no endpoint)');
  } else if (!model) {
    bad('streamed preflight: the endpoint lists no model; load one or name it: bench-llm --check <model>');
    endpointOk = false;
  } else {
    try {
      const result = await streamChat({
        baseUrl: o.baseUrl,
        model,
        providerKind: o.providerKind,
        events: false,
        ...(o.apiKey ? { apiKey: o.apiKey } : {}),
        request: { messages: [{ role: 'user', content: 'Reply with the single word: ready' }], max_tokens: 32 },
        timeouts: { connectMs: 10_000, firstTokenMs: 120_000, totalMs: 180_000 },
        signal: io.signal,
      }).result;
      const ttft = result.ttft_s === null ? '—' : `${result.ttft_s.toFixed(3)} s`;
      const served = result.served_model ?? model;
      if (result.wrong_model) {
        bad(`streamed preflight: ${model} answered as "${served}" (wrong model)`);
        endpointOk = false;
      } else {
        ok(`streamed preflight: ${model} answered (TTFT ${ttft}, ${result.completion_tokens ?? result.estimated_completion_tokens} tokens, finish ${result.finish_reason ?? '—'})`);
      }
    } catch (error) {
      if (!CrucibleError.isInstance(error)) throw error;
      bad(`streamed preflight: ${model}: ${error.message}`);
      endpointOk = false;
    }
  }
  const sandbox = await detectSandbox(o.bwrapPath ? { bwrapPath: o.bwrapPath } : {});
  if (sandbox.available) ok(`sandbox: bubblewrap ${sandbox.version ?? ''} at ${sandbox.bwrapPath} (the code test runs in it)`.replace('  ', ' '));
  else bad(`sandbox unavailable: ${sandbox.reason ?? 'unknown reason'} (install bubblewrap, or --allow-unsandboxed to run the code test without it, or --speed-only)`);
  if (!endpointOk) return EXIT.failed;
  return sandbox.available ? EXIT.ok : EXIT.noSandbox;
}
