import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { jsonObject as obj, nonEmptyString as str, type FetchLike } from '@crucibleforge/core';
import { readGgufInfo, type GgufInfo } from './gguf';
import { serverRoot, type ProviderKind } from '@crucibleforge/timing';

/** Where a model's GGUF file was found, and how. */
export interface GgufLocation {
  path: string;
  source: 'lmstudio' | 'ollama' | 'llamacpp';
  /** How it was matched, for the user: the manifest, the folder, the `/props` field. */
  detail: string;
}

/** The folders discovery looks in (the app builds them from HOME and OLLAMA_MODELS; libraries read no env). */
export interface ModelRoots {
  lmstudio: string[];
  ollama: string[];
}

/**
 * The usual model folders: LM Studio's `~/.lmstudio/models` (or the home its `~/.lmstudio-home-pointer`
 * names) and the older `~/.cache/lm-studio/models`; Ollama's `$OLLAMA_MODELS`, `~/.ollama/models` and the
 * Linux service's `/usr/share/ollama/.ollama/models`.
 */
export async function defaultModelRoots(env: { home?: string | undefined; ollamaModels?: string | undefined }): Promise<ModelRoots> {
  const lmstudio: string[] = [];
  const ollama: string[] = [];
  if (env.ollamaModels) ollama.push(env.ollamaModels);
  if (env.home) {
    const pointer = await readFile(join(env.home, '.lmstudio-home-pointer'), 'utf8').catch(() => '');
    if (pointer.trim()) lmstudio.push(join(pointer.trim(), 'models'));
    lmstudio.push(join(env.home, '.lmstudio', 'models'), join(env.home, '.cache', 'lm-studio', 'models'));
    ollama.push(join(env.home, '.ollama', 'models'));
  }
  ollama.push('/usr/share/ollama/.ollama/models');
  return { lmstudio: [...new Set(lmstudio)], ollama: [...new Set(ollama)] };
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then((s) => s.isFile(), () => false);
}

async function dirs(path: string): Promise<string[]> {
  const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory() || e.isSymbolicLink()).map((e) => e.name);
}

/** Ollama's model reference → its manifest's path parts: `[registry, namespace, model, tag]`. */
export function ollamaManifestParts(name: string): [string, string, string, string] {
  const colon = name.lastIndexOf(':');
  const slash = name.lastIndexOf('/');
  const [ref, tag] = colon > slash ? [name.slice(0, colon), name.slice(colon + 1)] : [name, 'latest'];
  const parts = ref.split('/');
  if (parts.length >= 3) return [parts[0]!, parts.slice(1, -1).join('/'), parts.at(-1)!, tag];
  if (parts.length === 2) return ['registry.ollama.ai', parts[0]!, parts[1]!, tag];
  return ['registry.ollama.ai', 'library', parts[0]!, tag];
}

const OLLAMA_MODEL_LAYER = 'application/vnd.ollama.image.model';

/** Ollama: `manifests/<registry>/<namespace>/<model>/<tag>` → the model layer's digest → `blobs/sha256-<hex>`. */
export async function findOllamaGguf(root: string, name: string): Promise<GgufLocation | null> {
  const manifest = join(root, 'manifests', ...ollamaManifestParts(name.trim()));
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(manifest, 'utf8'));
  } catch {
    return null;
  }
  const layers = obj(parsed)?.layers;
  if (!Array.isArray(layers)) return null;
  const layer = layers.map(obj).find((l) => l?.mediaType === OLLAMA_MODEL_LAYER);
  const digest = str(layer?.digest);
  if (!digest || !/^sha256:[0-9a-f]{64}$/i.test(digest)) return null;
  const blob = join(root, 'blobs', digest.replace(':', '-'));
  return (await isFile(blob)) ? { path: blob, source: 'ollama', detail: `Ollama manifest ${manifest} → ${digest.slice(0, 19)}…` } : null;
}

const norm = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '');
const QUANT_IN_NAME = /(?:^|[-_.])((?:i?q\d(?:_[a-z0-9]+)*)|bf16|f16|f32|fp16)(?=$|[-_.])/i;

/** A model id as LM Studio names it: `publisher/repo`, `repo`, `key@q4_k_m` → its parts. */
function lmStudioParts(id: string): { publisher: string | null; name: string; quant: string | null } {
  const [ref, quant] = id.split('@') as [string, string | undefined];
  const slash = ref.lastIndexOf('/');
  return { publisher: slash > 0 ? ref.slice(0, slash) : null, name: ref.slice(slash + 1), quant: quant ?? null };
}

/** How well a GGUF file under `publisher/repo/` matches the model id (0: not at all). */
function lmStudioScore(want: ReturnType<typeof lmStudioParts>, hint: { publisher?: string | null; quantization?: string | null }, publisher: string, repo: string, file: string): number {
  if (/mmproj/i.test(file) || !/\.gguf$/i.test(file)) return 0;
  if (/-0000[2-9]-of-|-000[1-9]\d-of-/i.test(file)) return 0; // later shards: the first one carries the header
  const name = norm(want.name.replace(/-gguf$/i, ''));
  const repoKey = norm(repo.replace(/-gguf$/i, ''));
  const stem = norm(file.replace(/\.gguf$/i, '').replace(QUANT_IN_NAME, ''));
  let score = 0;
  if (repoKey === name || stem === name) score = 3;
  else if (repoKey.includes(name) || stem.includes(name) || name.includes(repoKey)) score = 1;
  if (score === 0) return 0;
  const pub = want.publisher ?? hint.publisher ?? null;
  if (pub && norm(pub) === norm(publisher)) score += 2;
  const quant = want.quant ?? hint.quantization ?? null;
  const inFile = QUANT_IN_NAME.exec(file.replace(/\.gguf$/i, ''))?.[1] ?? null;
  if (quant && inFile && norm(quant) === norm(inFile)) score += 2;
  return score;
}

/**
 * LM Studio: the best match under `<root>/<publisher>/<repo>/<file>.gguf` for a model id (its key,
 * `publisher/repo`, or `key@quant`), helped by what its REST API reports (publisher, quantization).
 */
export async function findLmStudioGguf(
  root: string,
  id: string,
  hint: { publisher?: string | null; quantization?: string | null } = {},
): Promise<GgufLocation | null> {
  const want = lmStudioParts(id.trim());
  let best: { path: string; score: number } | null = null;
  for (const publisher of await dirs(root)) {
    for (const repo of await dirs(join(root, publisher))) {
      const files = await readdir(join(root, publisher, repo)).catch(() => []);
      for (const file of files.sort()) {
        const score = lmStudioScore(want, hint, publisher, repo, file);
        if (score > (best?.score ?? 0)) best = { path: join(root, publisher, repo, file), score };
      }
    }
  }
  return best ? { path: best.path, source: 'lmstudio', detail: `LM Studio models folder ${root}` } : null;
}

/** llama.cpp server: `GET <root>/props` → `model_path` (the file the server loaded), or null. */
export async function llamaCppModelPath(baseUrl: string, options: { fetch?: FetchLike; apiKey?: string; timeoutMs?: number } = {}): Promise<string | null> {
  const fetchFn = options.fetch ?? globalThis.fetch;
  try {
    const response = await fetchFn(`${serverRoot(baseUrl)}/props`, {
      headers: { accept: 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
      signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return null;
    }
    return str(obj(await response.json())?.model_path);
  } catch {
    return null;
  }
}

export interface DiscoverOptions {
  roots: ModelRoots;
  /** The server kind decides where to look first (default: all, llama.cpp `/props` first when a URL is given). */
  providerKind?: ProviderKind;
  /** The endpoint, for llama.cpp's `/props`. */
  baseUrl?: string;
  fetch?: FetchLike;
  apiKey?: string;
  /** What the endpoint's metadata said (LM Studio's publisher and quantization). */
  hint?: { publisher?: string | null; quantization?: string | null };
}

/**
 * Finds a served model's GGUF without being told: llama.cpp's `/props` model path, Ollama's manifest
 * → blob, or LM Studio's publisher/repo/file folders. Null when none is found (a remote endpoint, a
 * non-GGUF model); never throws for a missing folder.
 */
export async function findGguf(model: string, options: DiscoverOptions): Promise<GgufLocation | null> {
  const kind = options.providerKind ?? 'generic';
  const props = async (): Promise<GgufLocation | null> => {
    if (!options.baseUrl) return null;
    const path = await llamaCppModelPath(options.baseUrl, { ...(options.fetch ? { fetch: options.fetch } : {}), ...(options.apiKey ? { apiKey: options.apiKey } : {}) });
    return path && (await isFile(path)) ? { path, source: 'llamacpp', detail: `${serverRoot(options.baseUrl)}/props model_path` } : null;
  };
  const ollama = async () => {
    for (const root of options.roots.ollama) {
      const found = await findOllamaGguf(root, model);
      if (found) return found;
    }
    return null;
  };
  const lmstudio = async () => {
    for (const root of options.roots.lmstudio) {
      const found = await findLmStudioGguf(root, model, options.hint ?? {});
      if (found) return found;
    }
    return null;
  };
  const order =
    kind === 'ollama' ? [ollama] : kind === 'lmstudio' ? [lmstudio] : kind === 'llamacpp' ? [props] : [props, ollama, lmstudio];
  for (const look of order) {
    const found = await look();
    if (found) return found;
  }
  return null;
}

/** {@link findGguf} plus the file's header (size, quantisation, parameters, architecture, experts); null when not found or unreadable. */
export async function discoverGguf(model: string, options: DiscoverOptions): Promise<{ location: GgufLocation; info: GgufInfo } | null> {
  const location = await findGguf(model, options);
  if (!location) return null;
  const info = await readGgufInfo(location.path).catch(() => null);
  return info ? { location, info } : null;
}
