/**
 * `bench-llm --check`: three checks on one endpoint: it lists its models, the runner's preflight (a real
 * streamed completion and the wrong-model guard) passes, and the sandbox the code test needs is usable.
 */
import { detectSandbox } from '@crucibleforge/sandbox';
import { probeEndpoint, type ProviderKind } from '@crucibleforge/timing';
import { preflightModel } from './api';
import { endpointConfig } from './config';

export interface SetupCheck {
  /** Each check's verdict and what it found, in order. */
  checks: { ok: boolean; text: string }[];
  endpointOk: boolean;
  sandboxOk: boolean;
}

export async function checkEndpointSetup(o: {
  baseUrl: string;
  providerKind: ProviderKind;
  apiKey?: string | undefined;
  apiKeyEnv?: string | undefined;
  /** The model to preflight (default: the first the endpoint lists). */
  model?: string | undefined;
  env: Record<string, string | undefined>;
  bwrapPath?: string | undefined;
  signal?: AbortSignal;
}): Promise<SetupCheck> {
  const checks: SetupCheck['checks'] = [];
  const { listing } = await probeEndpoint(o.baseUrl, { ...(o.apiKey ? { apiKey: o.apiKey } : {}) });
  let endpointOk = listing.ok;
  if (!listing.ok) checks.push({ ok: false, text: `endpoint ${o.baseUrl}: no answer from /models (${listing.reason}; is the server running? is --base-url right?)` });
  else checks.push({ ok: true, text: `endpoint ${o.baseUrl}: ${listing.ids.length} model${listing.ids.length === 1 ? '' : 's'} listed` });
  const model = o.model ?? (listing.ok ? listing.ids[0] : undefined);
  if (!endpointOk) checks.push({ ok: false, text: 'streamed preflight: skipped (no endpoint)' });
  else if (!model) {
    checks.push({ ok: false, text: 'streamed preflight: the endpoint lists no model; load one or name it: bench-llm --check <model>' });
    endpointOk = false;
  } else {
    const { config, label } = endpointConfig({ baseUrl: o.baseUrl, kind: o.providerKind, apiKeyEnv: o.apiKeyEnv, model });
    const r = await preflightModel({ config, label, env: o.env, ...(o.signal ? { signal: o.signal } : {}) });
    if (r.ok) checks.push({ ok: true, text: `streamed preflight: ${model} answered (TTFT ${r.ttft_s === null ? '—' : `${r.ttft_s.toFixed(3)} s`}${r.reasoning ? ', reasoning' : ''})` });
    else checks.push({ ok: false, text: `streamed preflight: ${model}: ${r.message}` });
    endpointOk = r.ok;
  }
  const sandbox = await detectSandbox(o.bwrapPath ? { bwrapPath: o.bwrapPath } : {});
  checks.push(
    sandbox.available
      ? { ok: true, text: `sandbox: bubblewrap ${sandbox.version ?? ''} at ${sandbox.bwrapPath} (the code test runs in it)`.replace('  ', ' ') }
      : { ok: false, text: `sandbox unavailable: ${sandbox.reason ?? 'unknown reason'} (install bubblewrap, or --allow-unsandboxed to run the code test without it, or --speed-only)` },
  );
  return { checks, endpointOk, sandboxOk: sandbox.available };
}
