import { finiteNumber } from '@crucibleforge/core';
import JSON5 from 'json5';
import { isMap, Pair, parseDocument, Scalar, YAMLMap, type Document } from 'yaml';
import { parseConfig } from './config';
import type { ProviderKind } from './config-schema';
import { RunnerError } from './errors';

export interface OpenClawImportOptions {
  /** Where the OpenClaw text came from (named in errors and notes). */
  source: string;
  /** The models.yaml text to merge into; null or undefined starts a new file. */
  existing?: string | null;
  existingFile?: string;
}

export interface OpenClawImportResult {
  /** The merged models.yaml text (existing content and comments kept). */
  text: string;
  providers: { name: string; kind: ProviderKind; base_url: string; api_key_env: string | null }[];
  models: { label: string; provider: string; id: string }[];
  skipped: { what: string; reason: string }[];
  /** Variables the user must export because openclaw.json held a literal key (never copied). */
  keysToSet: { variable: string; provider: string }[];
  /** What was imported, skipped and must be set, one line each (`+ provider …`, `- skipped …`, `! … export VAR=...`). */
  summary: string[];
}

function summaryOf(r: Omit<OpenClawImportResult, 'summary'>, source: string): string[] {
  const out: string[] = [];
  for (const p of r.providers) out.push(`+ provider ${p.name} (${p.kind}, ${p.base_url}${p.api_key_env ? `, key from $${p.api_key_env}` : ''})`);
  for (const m of r.models) out.push(`+ model ${m.label} (${m.provider}/${m.id}, disabled)`);
  for (const s of r.skipped) out.push(`- skipped ${s.what}: ${s.reason}`);
  if (r.providers.length + r.models.length === 0) out.push('nothing new to import');
  for (const k of r.keysToSet) out.push(`! ${source} holds a literal API key for "${k.provider}"; it was not copied. Set it in the environment: export ${k.variable}=...`);
  return out;
}

const PLACEHOLDER_KEYS = new Set(['', 'local', 'lm-studio', 'lmstudio', 'ollama', 'none', 'no-key', 'sk-no-key-required']);

interface OcModel {
  id?: unknown;
  input?: unknown;
  reasoning?: unknown;
  cost?: { input?: unknown; output?: unknown; cacheRead?: unknown };
  contextWindow?: unknown;
  contextTokens?: unknown;
  maxTokens?: unknown;
}

interface OcProvider {
  baseUrl?: unknown;
  apiKey?: unknown;
  api?: unknown;
  models?: unknown;
}

function num(value: unknown): number | undefined {
  return finiteNumber(value) ?? undefined;
}

function kindFor(baseUrl: string): ProviderKind {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return 'generic';
  }
  const host = url.hostname;
  if (host.endsWith('openrouter.ai')) return 'openrouter';
  if (host.endsWith('deepseek.com')) return 'deepseek';
  if (host === 'api.openai.com') return 'openai';
  if (url.port === '1234') return 'lmstudio';
  if (url.port === '11434') return 'ollama';
  return 'generic';
}

function slug(text: string): string {
  return text.replace(/[^A-Za-z0-9._:-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').replace(/-+$/, '') || 'model';
}

/** `${VAR}` or a SecretRef → the variable; a literal → null plus whether one must be set. */
function keyVariable(apiKey: unknown, providerName: string): { variable: string | null; literal: boolean } {
  if (typeof apiKey === 'string') {
    const match = /^\$\{([A-Z_][A-Z0-9_]*)\}$/.exec(apiKey.trim());
    if (match) return { variable: match[1]!, literal: false };
    if (PLACEHOLDER_KEYS.has(apiKey.trim().toLowerCase())) return { variable: null, literal: false };
    const variable = `${providerName.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '')}_API_KEY`;
    return { variable: /^[A-Z_]/.test(variable) ? variable : `OC_${variable}`, literal: true };
  }
  if (apiKey && typeof apiKey === 'object') {
    const ref = apiKey as { source?: unknown; id?: unknown };
    if (ref.source === 'env' && typeof ref.id === 'string') return { variable: ref.id, literal: false };
  }
  return { variable: null, literal: false };
}

function ensureMap(doc: Document, key: string): YAMLMap {
  const node = doc.get(key, true);
  if (isMap(node)) return node;
  const map = new YAMLMap();
  doc.set(key, map);
  return map;
}

/** Adds `key: value` with a comment line above the key. */
function addWithComment(map: YAMLMap, key: string, value: unknown, comment: string): void {
  const scalar = new Scalar(key);
  scalar.commentBefore = comment;
  map.items.push(new Pair(scalar, value));
}

/**
 * Imports OpenAI-type providers and their models from OpenClaw's JSON5 config into models.yaml text.
 * Keys are never copied; imported models start disabled. Pure: the caller reads and writes the files.
 */
export function importOpenClaw(openclawText: string, options: OpenClawImportOptions): OpenClawImportResult {
  let parsed: unknown;
  try {
    parsed = JSON5.parse(openclawText);
  } catch (cause) {
    throw new RunnerError('RUNNER_OPENCLAW_INVALID', `${options.source}: not valid JSON5: ${(cause as Error).message}`, {
      cause,
    });
  }
  const providersNode = (parsed as { models?: { providers?: unknown } } | null)?.models?.providers;
  if (!providersNode || typeof providersNode !== 'object') {
    throw new RunnerError('RUNNER_OPENCLAW_INVALID', `${options.source}: no models.providers section to import`);
  }
  const existingFile = options.existingFile ?? 'models.yaml';
  const existing = options.existing ? parseConfig(options.existing, existingFile) : null;
  const doc = options.existing
    ? parseDocument(options.existing)
    : parseDocument('# CrucibleForge models.yaml (created by import-openclaw)\nversion: 1\n');
  const providersMap = ensureMap(doc, 'providers');
  const modelsMap = ensureMap(doc, 'models');
  const result: OpenClawImportResult = { text: '', providers: [], models: [], skipped: [], keysToSet: [], summary: [] };
  const knownProviders = new Map(Object.entries(existing?.providers ?? {}).map(([n, p]) => [n, p.base_url]));
  const knownPairs = new Set(Object.values(existing?.models ?? {}).map((m) => `${m.provider}\u0000${m.id}`));
  const knownLabels = new Set(Object.keys(existing?.models ?? {}));

  for (const [ocName, raw] of Object.entries(providersNode as Record<string, OcProvider>)) {
    const api = raw.api ?? 'openai-completions';
    if (api !== 'openai-completions') {
      result.skipped.push({ what: `provider ${ocName}`, reason: `api "${String(api)}" is not OpenAI-compatible` });
      continue;
    }
    if (typeof raw.baseUrl !== 'string' || raw.baseUrl === '') {
      result.skipped.push({ what: `provider ${ocName}`, reason: 'no baseUrl' });
      continue;
    }
    const baseUrl = raw.baseUrl.replace(/\/+$/, '');
    let name = slug(ocName);
    const clash = knownProviders.get(name);
    if (clash !== undefined && clash.replace(/\/+$/, '') !== baseUrl) name = `oc-${name}`;
    const reuse = knownProviders.get(name)?.replace(/\/+$/, '') === baseUrl;
    const { variable, literal } = keyVariable(raw.apiKey, name);
    const kind = kindFor(baseUrl);
    if (!reuse) {
      const entry: Record<string, unknown> = { kind, base_url: baseUrl };
      if (variable) entry['api_key_env'] = variable;
      if (!['lmstudio', 'ollama', 'llamacpp', 'vllm'].includes(kind)) entry['concurrency'] = 4;
      addWithComment(providersMap, name, doc.createNode(entry), ` imported from ${options.source} (provider "${ocName}")`);
      knownProviders.set(name, baseUrl);
      result.providers.push({ name, kind, base_url: baseUrl, api_key_env: variable });
      if (literal && variable) result.keysToSet.push({ variable, provider: name });
    }
    const models = Array.isArray(raw.models) ? (raw.models as OcModel[]) : [];
    for (const m of models) {
      if (typeof m.id !== 'string' || m.id === '') continue;
      if (Array.isArray(m.input) && !m.input.includes('text')) {
        result.skipped.push({ what: `model ${ocName}/${m.id}`, reason: 'does not take text input' });
        continue;
      }
      if (knownPairs.has(`${name}\u0000${m.id}`)) {
        result.skipped.push({ what: `model ${ocName}/${m.id}`, reason: 'already configured' });
        continue;
      }
      let label = slug(`${name}-${m.id.split('/').pop() ?? m.id}`);
      for (let n = 2; knownLabels.has(label); n++) label = `${slug(`${name}-${m.id.split('/').pop()}`)}-${n}`;
      const entry: Record<string, unknown> = { provider: name, id: m.id };
      const context = num(m.contextWindow) ?? num(m.contextTokens);
      if (context !== undefined && context >= 256) entry['context_length'] = Math.round(context);
      if (m.reasoning === true) entry['reasoning'] = 'on';
      const maxTokens = num(m.maxTokens);
      if (maxTokens !== undefined && maxTokens >= 16) entry['max_tokens'] = Math.round(maxTokens);
      const input = num(m.cost?.input);
      const output = num(m.cost?.output);
      const cached = num(m.cost?.cacheRead);
      if ((input ?? 0) > 0 || (output ?? 0) > 0) {
        const prices = doc.createNode({ input: input ?? 0, ...(cached ? { cached_input: cached } : {}), output: output ?? 0 });
        prices.flow = true;
        entry['prices'] = prices;
      }
      entry['enabled'] = false;
      addWithComment(modelsMap, label, doc.createNode(entry), ` imported from ${options.source}; disabled until you set enabled: true`);
      knownLabels.add(label);
      knownPairs.add(`${name}\u0000${m.id}`);
      result.models.push({ label, provider: name, id: m.id });
    }
  }
  result.text = doc.toString();
  parseConfig(result.text, existingFile); // the merged file must itself be valid
  result.summary = summaryOf(result, options.source);
  return result;
}
