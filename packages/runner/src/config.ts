import { readFile, access } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { isMap, isPair, isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import {
  configSchema,
  IN_PROCESS_KIND,
  inProcessEndpoint,
  isInProcess,
  LOCAL_KINDS,
  type HttpProviderConfig,
  type ModelConfig,
  type Prices,
  type ProviderConfig,
  type RunnerConfigData,
  type TimeoutsConfig,
} from './config-schema';
import { configInvalid, RunnerError, type ConfigIssue } from './errors';

/** A validated models.yaml, with the file it came from. */
export interface RunnerConfig extends RunnerConfigData {
  file: string;
}

/** One model with everything the runner needs from its provider resolved. */
export interface ResolvedModel {
  label: string;
  model: ModelConfig;
  providerName: string;
  provider: ProviderConfig;
  local: boolean;
  /** How many of this provider's requests may run at once. */
  concurrency: number;
  prices: Prices | null;
  /** Request limits in ms from models.yaml (model over provider, field by field); absent fields use the client's defaults. */
  timeouts: RequestTimeouts;
}

/** Request time limits, milliseconds. */
export interface RequestTimeouts {
  connectMs?: number;
  firstTokenMs?: number;
  gapMs?: number;
  totalMs?: number;
}

/** Merges the provider's and the model's `timeouts` (and the provider's old `timeout_s`) into milliseconds. */
export function timeoutsOf(provider: ProviderConfig, model: ModelConfig): RequestTimeouts {
  const merged: TimeoutsConfig = { ...(provider.timeout_s === undefined ? {} : { first_token_s: provider.timeout_s }), ...provider.timeouts, ...model.timeouts };
  const out: RequestTimeouts = {};
  if (merged.connect_s !== undefined) out.connectMs = merged.connect_s * 1000;
  if (merged.first_token_s !== undefined) out.firstTokenMs = merged.first_token_s * 1000;
  if (merged.gap_s !== undefined) out.gapMs = merged.gap_s * 1000;
  if (merged.total_s !== undefined) out.totalMs = merged.total_s * 1000;
  return out;
}

type Path = (string | number)[];

function positionOf(doc: Document, counter: LineCounter, path: Path, preferKey: string | undefined) {
  // Walk as deep as the document goes; point at the key when the field itself is missing or unknown.
  let node: unknown = doc.contents;
  let offset = 0;
  const segments = preferKey === undefined ? path : [...path, preferKey];
  for (const segment of segments) {
    if (!isMap(node)) break;
    const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(segment));
    if (!pair) break;
    const key = pair.key as { range?: [number, number, number] };
    const value = pair.value as { range?: [number, number, number] } | null;
    offset = (segment === preferKey ? key.range?.[0] : (value?.range?.[0] ?? key.range?.[0])) ?? offset;
    node = pair.value;
  }
  if (node === doc.contents && segments.length === 0) offset = (doc.contents as { range?: number[] } | null)?.range?.[0] ?? 0;
  const pos = counter.linePos(offset);
  return { line: pos.line, column: pos.col };
}

function issuesFromZod(file: string, doc: Document, counter: LineCounter, error: z.ZodError): ConfigIssue[] {
  return error.issues.map((issue) => {
    const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    const unknownKey = issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
    const field = [...path, ...(unknownKey === undefined ? [] : [unknownKey])].join('.');
    const message = issue.code === 'unrecognized_keys' ? `unknown field (${issue.message})` : issue.message;
    return { file, field, message, ...positionOf(doc, counter, path, unknownKey) };
  });
}

function crossReferenceIssues(file: string, doc: Document, counter: LineCounter, data: RunnerConfigData): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const at = (path: Path, message: string) =>
    issues.push({ file, field: path.join('.'), message, ...positionOf(doc, counter, path, undefined) });
  const providerNames = Object.keys(data.providers);
  for (const [label, model] of Object.entries(data.models)) {
    if (!data.providers[model.provider]) {
      at(['models', label, 'provider'], `unknown provider "${model.provider}" (known: ${providerNames.join(', ') || 'none'})`);
    }
  }
  for (const [label, model] of Object.entries(data.models)) {
    const provider = data.providers[model.provider];
    if (!provider) continue;
    const t = timeoutsOf(provider, model);
    for (const [name, ms] of [['first_token_s', t.firstTokenMs], ['gap_s', t.gapMs]] as const) {
      if (ms !== undefined && t.totalMs !== undefined && ms > t.totalMs) {
        at(['models', label, 'timeouts'], `${name} (${ms / 1000} s, from the model or its provider) is longer than total_s (${t.totalMs / 1000} s)`);
      }
    }
  }
  if (data.judge && !data.models[data.judge.model]) {
    at(['judge', 'model'], `unknown model "${data.judge.model}" (known: ${Object.keys(data.models).join(', ') || 'none'})`);
  }
  return issues;
}

/** Parses and validates models.yaml text. Throws RUNNER_CONFIG_INVALID naming file, line and field. */
export function parseConfig(text: string, file = 'models.yaml'): RunnerConfig {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false });
  if (doc.errors.length > 0) {
    const issues = doc.errors.map((e) => {
      const pos = counter.linePos(e.pos[0]);
      return { file, line: pos.line, column: pos.col, field: '', message: `YAML syntax: ${e.message.split('\n')[0]}` };
    });
    throw configInvalid(file, issues);
  }
  const raw: unknown = doc.toJS() ?? {};
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) throw configInvalid(file, issuesFromZod(file, doc, counter, parsed.error));
  const crossIssues = crossReferenceIssues(file, doc, counter, parsed.data);
  if (crossIssues.length > 0) throw configInvalid(file, crossIssues);
  // An in-process provider's `gguf` is relative to the file that names it.
  for (const provider of Object.values(parsed.data.providers)) {
    if (isInProcess(provider) && !isAbsolute(provider.gguf) && isAbsolute(file)) {
      provider.gguf = resolve(dirname(file), provider.gguf);
      provider.base_url = inProcessEndpoint(provider.gguf);
    }
  }
  return { ...parsed.data, file };
}

/** Reads and validates a models.yaml file. */
export async function loadConfig(file: string): Promise<RunnerConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new RunnerError('RUNNER_CONFIG_NOT_FOUND', `cannot read configuration ${file}: ${(cause as Error).message}`, {
      cause,
      details: { file },
    });
  }
  return parseConfig(text, file);
}

export interface ConfigLocations {
  /** `--config PATH`, already resolved against the working directory. */
  flag?: string;
  /** `$CRUCIBLEFORGE_CONFIG`. */
  envPath?: string;
  cwd: string;
  /** e.g. `$XDG_CONFIG_HOME/crucibleforge` or `~/.config/crucibleforge`. */
  userConfigDir?: string;
}

/** Discovery order: --config, $CRUCIBLEFORGE_CONFIG, ./models.yaml, the user config dir. */
export function configCandidates(locations: ConfigLocations): string[] {
  const list = [locations.flag, locations.envPath, join(locations.cwd, 'models.yaml')];
  if (locations.userConfigDir) list.push(join(locations.userConfigDir, 'models.yaml'));
  return list.filter((p): p is string => typeof p === 'string' && p.length > 0);
}

/**
 * The configuration file in use: an explicit flag or env path wins even when missing (so errors and
 * `config --init` name it); otherwise the first candidate that exists, or null.
 */
export async function resolveConfigPath(locations: ConfigLocations): Promise<{ path: string | null; searched: string[] }> {
  const searched = configCandidates(locations);
  if (locations.flag) return { path: locations.flag, searched: [locations.flag] };
  if (locations.envPath) return { path: locations.envPath, searched: [locations.envPath] };
  for (const candidate of searched) {
    try {
      await access(candidate);
      return { path: candidate, searched };
    } catch {
      // try the next one
    }
  }
  return { path: null, searched };
}

/** Looks up a model label and resolves its provider, concurrency and prices. */
export function resolveModel(config: RunnerConfigData & { file?: string }, label: string): ResolvedModel {
  const model = config.models[label];
  if (!model) {
    throw new RunnerError(
      'RUNNER_UNKNOWN_MODEL',
      `unknown model "${label}"${config.file ? ` in ${config.file}` : ''} (configured: ${Object.keys(config.models).join(', ') || 'none'})`,
      { details: { label } },
    );
  }
  const provider = config.providers[model.provider];
  if (!provider) throw new RunnerError('RUNNER_CONFIG_INVALID', `model "${label}" names unknown provider "${model.provider}"`);
  const local = LOCAL_KINDS.has(provider.kind);
  return {
    label,
    model,
    providerName: model.provider,
    provider,
    local,
    concurrency: provider.concurrency ?? (local ? 1 : 4),
    prices: model.prices ?? provider.prices ?? null,
    timeouts: timeoutsOf(provider, model),
  };
}

/** `--models a,b` or `all` (= every enabled model) → labels, checked against the config. */
export function selectModels(config: RunnerConfigData & { file?: string }, requested: string[]): string[] {
  if (requested.length === 1 && requested[0] === 'all') {
    return Object.entries(config.models)
      .filter(([, m]) => m.enabled)
      .map(([label]) => label);
  }
  for (const label of requested) resolveModel(config, label);
  return [...new Set(requested)];
}

/** The API key a provider needs, from the injected environment; throws naming the variable when unset. */
export function apiKeyFor(resolved: ResolvedModel, env: Record<string, string | undefined>): string | undefined {
  const name = resolved.provider.api_key_env;
  if (!name) return undefined;
  const value = env[name];
  if (value === undefined || value === '') {
    throw new RunnerError(
      'RUNNER_MISSING_API_KEY',
      `provider "${resolved.providerName}" (model "${resolved.label}") needs an API key: set the environment variable ${name}`,
      { details: { variable: name, provider: resolved.providerName } },
    );
  }
  return value;
}

/** Names of every environment variable the configuration reads a secret from (provider keys, lease keys). */
export function secretVariables(config: RunnerConfigData): string[] {
  const names = new Set<string>();
  for (const provider of Object.values(config.providers)) if (provider.api_key_env) names.add(provider.api_key_env);
  for (const model of Object.values(config.models)) if (model.lease?.api_key_env) names.add(model.lease.api_key_env);
  return [...names];
}

/** The values of those variables that are set in `env`: what must never reach a row, an event or the terminal. */
export function configuredSecrets(config: RunnerConfigData, env: Record<string, string | undefined>): string[] {
  return secretVariables(config)
    .map((name) => env[name])
    .filter((v): v is string => typeof v === 'string' && v !== '');
}

/**
 * models.yaml for one endpoint and one model, in memory (bench-llm, `bench-llm --check`): a provider `endpoint`
 * of the given kind, one request at a time, the key read from `apiKeyEnv`, and the model under a label made of
 * its id (labels allow letters, digits and . _ : -).
 */
export function endpointConfig(
  options:
    | { baseUrl: string; kind: HttpProviderConfig['kind']; apiKeyEnv?: string | undefined; model: string }
    | { gguf: string; engine?: { threads?: number; context?: number; batch?: number }; model: string },
): { config: RunnerConfigData; label: string } {
  const label = options.model.replace(/[^A-Za-z0-9._:-]+/g, '_').replace(/^[^A-Za-z0-9]+/, '') || 'model';
  const provider =
    'gguf' in options
      ? { kind: IN_PROCESS_KIND, gguf: options.gguf, ...options.engine }
      : { kind: options.kind, base_url: options.baseUrl, concurrency: 1, ...(options.apiKeyEnv ? { api_key_env: options.apiKeyEnv } : {}) };
  return { config: configSchema.parse({ providers: { endpoint: provider }, models: { [label]: { provider: 'endpoint', id: options.model } } }), label };
}
