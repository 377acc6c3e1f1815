import type { FetchLike } from '@crucibleforge/core';
import { LeaseError } from './errors';
import { readRefusal, type Refusal } from './protocol';

/** Credentials for a lease server. Values come from the caller (the CLI reads them from named env vars). */
export interface LeaseAuth {
  /** The server's `server.api_key`, when it has one. */
  apiKey?: string;
  /** How the key travels: `Authorization: Bearer <key>` (default) or `X-API-Key: <key>`. */
  apiKeyHeader?: 'bearer' | 'x-api-key';
  /** The MCP pairing PIN for lease calls from another machine; sent as `X-MCP-Pin`. */
  pin?: string;
  /** `X-SF-Client` attribution label (the server's default holder); optional. */
  client?: string;
}

/** Where the lease server is and how to talk to it; shared by every call in this package. */
export interface LeaseServerOptions {
  /** `http://host:1234` or the OpenAI base `http://host:1234/v1` (the `/v1` is stripped). */
  server: string | URL;
  auth?: LeaseAuth;
  /** Default `globalThis.fetch`. */
  fetch?: FetchLike;
  /** Per-request limit for status/touch/release calls (default 30 000 ms). The grant call has none. */
  requestTimeoutMs?: number;
}

export type ServerReply = { ok: true; status: number; body: unknown; url: string } | { ok: false; refusal: Refusal; url: string };

/** The management root (`http://host:1234`) of a server URL, validated; throws LEASE_CONFIG naming the value. */
export function managementRoot(server: string | URL): string {
  let url: URL;
  try {
    url = new URL(String(server));
  } catch {
    throw new LeaseError('LEASE_CONFIG', `lease server URL "${String(server)}" is not a valid URL (expected e.g. http://gpu-box:1234)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new LeaseError('LEASE_CONFIG', `lease server URL "${String(server)}" must start with http:// or https://`);
  }
  if (url.username || url.password) {
    throw new LeaseError('LEASE_CONFIG', `lease server URL "${url.host}" must not carry credentials; pass auth.apiKey / auth.pin instead`);
  }
  const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return `${url.origin}${path}`;
}

export function authHeaders(auth: LeaseAuth | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (auth?.apiKey) {
    if (auth.apiKeyHeader === 'x-api-key') headers['x-api-key'] = auth.apiKey;
    else headers['authorization'] = `Bearer ${auth.apiKey}`;
  }
  if (auth?.pin) headers['x-mcp-pin'] = auth.pin;
  if (auth?.client) headers['x-sf-client'] = auth.client;
  return headers;
}

export interface CallOptions {
  body?: unknown;
  /** Overrides `requestTimeoutMs`; `null` = no timeout (the grant call, which may load models for minutes). */
  timeoutMs?: number | null;
  signal?: AbortSignal | undefined;
}

/**
 * One request to the management API. A reply (any status) is a value; only a request that got no
 * reply throws: LEASE_ABORTED when the caller's signal fired, LEASE_UNREACHABLE otherwise.
 */
export async function callServer(options: LeaseServerOptions, method: string, path: string, call: CallOptions = {}): Promise<ServerReply> {
  const url = `${managementRoot(options.server)}${path}`;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = call.timeoutMs === undefined ? (options.requestTimeoutMs ?? 30_000) : call.timeoutMs;
  const signals = [call.signal, timeoutMs === null ? undefined : AbortSignal.timeout(timeoutMs)].filter(
    (s): s is AbortSignal => s !== undefined,
  );
  const headers: Record<string, string> = { accept: 'application/json', ...authHeaders(options.auth) };
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  let text: string;
  try {
    response = await fetchImpl(url, {
      method,
      headers,
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
      ...(signals.length > 0 ? { signal: signals.length === 1 ? signals[0] : AbortSignal.any(signals) } : {}),
    });
    text = await response.text();
  } catch (error) {
    if (call.signal?.aborted) {
      throw new LeaseError('LEASE_ABORTED', `${method} ${url} was aborted`, { cause: call.signal.reason });
    }
    const why = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    throw new LeaseError(
      'LEASE_UNREACHABLE',
      `lease server unreachable: ${method} ${url} failed (${why}); check the --server URL and that StudioForge is running`,
      { cause: error, retryable: true, details: { url } },
    );
  }
  let body: unknown = text;
  if (text.trim() !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  if (response.ok) return { ok: true, status: response.status, body, url };
  return { ok: false, refusal: readRefusal(response.status, body, response.headers.get('retry-after')), url };
}
