import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultModelRoots, discoverGguf, findGguf, findLmStudioGguf, findOllamaGguf, llamaCppModelPath, ollamaManifestParts } from './discover';
import { tinyLlama, writeTinyLlama } from './testing';

let home: string;
let server: Server;
let propsUrl: string;
let propsPath: string;

const small = { embedding: 32, layers: 1, heads: 2 } as const;

async function ollamaModel(root: string, name: string, model: Buffer): Promise<string> {
  const hex = createHash('sha256').update(model).digest('hex');
  await mkdir(join(root, 'blobs'), { recursive: true });
  await writeFile(join(root, 'blobs', `sha256-${hex}`), model);
  const manifest = join(root, 'manifests', ...ollamaManifestParts(name));
  await mkdir(join(manifest, '..'), { recursive: true });
  await writeFile(
    manifest,
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.docker.distribution.manifest.v2+json',
      config: { mediaType: 'application/vnd.docker.container.image.v1+json', digest: `sha256:${'0'.repeat(64)}`, size: 2 },
      layers: [
        { mediaType: 'application/vnd.ollama.image.template', digest: `sha256:${'1'.repeat(64)}`, size: 10 },
        { mediaType: 'application/vnd.ollama.image.model', digest: `sha256:${hex}`, size: model.length },
      ],
    }),
  );
  return join(root, 'blobs', `sha256-${hex}`);
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'cf-discover-'));
  // LM Studio: publisher/repo/file, two quantisations of one model and a vision projector beside them.
  const lms = join(home, '.lmstudio', 'models', 'lmstudio-community', 'Tiny-Llama-3B-Instruct-GGUF');
  await writeTinyLlama(join(lms, 'Tiny-Llama-3B-Instruct-Q8_0.gguf'), { ...small, type: 'Q8_0' });
  await writeTinyLlama(join(lms, 'Tiny-Llama-3B-Instruct-F16.gguf'), { ...small, type: 'F16' });
  await writeFile(join(lms, 'mmproj-Tiny-Llama-F16.gguf'), 'projector');
  await writeTinyLlama(join(home, '.cache', 'lm-studio', 'models', 'old', 'Legacy-Model-GGUF', 'legacy-model.Q8_0.gguf'), { ...small, type: 'Q8_0' });
  // Ollama: manifests → blobs, in the default folder and in a custom OLLAMA_MODELS folder.
  await ollamaModel(join(home, '.ollama', 'models'), 'tinyllama:latest', tinyLlama({ ...small, type: 'F16', name: 'ollama-tiny' }).bytes);
  await ollamaModel(join(home, 'custom-ollama'), 'hf.co/someone/Tiny-GGUF:Q8_0', tinyLlama({ ...small, type: 'Q8_0' }).bytes);
  // llama.cpp server: /props names the loaded file.
  propsPath = (await writeTinyLlama(join(home, 'llamacpp', 'served.gguf'), { ...small, type: 'F16' })).path;
  server = createServer((req, res) => {
    if (req.url === '/props') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ model_path: propsPath, total_slots: 1, default_generation_settings: { n_ctx: 4096 } }));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  propsUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(home, { recursive: true, force: true });
});

describe('GGUF discovery', () => {
  it('builds the usual roots from HOME and OLLAMA_MODELS (and LM Studio\'s home pointer)', async () => {
    await writeFile(join(home, '.lmstudio-home-pointer'), join(home, 'lms-home'));
    const roots = await defaultModelRoots({ home, ollamaModels: join(home, 'custom-ollama') });
    expect(roots.lmstudio).toEqual([join(home, 'lms-home', 'models'), join(home, '.lmstudio', 'models'), join(home, '.cache', 'lm-studio', 'models')]);
    expect(roots.ollama.slice(0, 2)).toEqual([join(home, 'custom-ollama'), join(home, '.ollama', 'models')]);
  });

  it('parses Ollama references into manifest paths', () => {
    expect(ollamaManifestParts('llama3.2')).toEqual(['registry.ollama.ai', 'library', 'llama3.2', 'latest']);
    expect(ollamaManifestParts('qwen3:8b')).toEqual(['registry.ollama.ai', 'library', 'qwen3', '8b']);
    expect(ollamaManifestParts('someone/model:tag')).toEqual(['registry.ollama.ai', 'someone', 'model', 'tag']);
    expect(ollamaManifestParts('hf.co/someone/Tiny-GGUF:Q8_0')).toEqual(['hf.co', 'someone', 'Tiny-GGUF', 'Q8_0']);
  });

  it('follows an Ollama manifest to its model blob, in the default folder and under OLLAMA_MODELS', async () => {
    const found = await findOllamaGguf(join(home, '.ollama', 'models'), 'tinyllama');
    expect(found?.source).toBe('ollama');
    expect(found?.path).toMatch(/blobs[/\\]sha256-[0-9a-f]{64}$/);
    const roots = await defaultModelRoots({ home, ollamaModels: join(home, 'custom-ollama') });
    const hf = await discoverGguf('hf.co/someone/Tiny-GGUF:Q8_0', { roots, providerKind: 'ollama' });
    expect(hf?.info).toMatchObject({ architecture: 'llama', quantization: 'Q8_0' });
    expect(await findOllamaGguf(join(home, '.ollama', 'models'), 'absent:7b')).toBeNull();
  });

  it('finds LM Studio files by key, publisher/repo and @quant, never a vision projector', async () => {
    const root = join(home, '.lmstudio', 'models');
    const byQuant = await findLmStudioGguf(root, 'tiny-llama-3b-instruct@q8_0');
    expect(byQuant?.path).toMatch(/Tiny-Llama-3B-Instruct-Q8_0\.gguf$/);
    const byHint = await findLmStudioGguf(root, 'tiny-llama-3b-instruct', { publisher: 'lmstudio-community', quantization: 'F16' });
    expect(byHint?.path).toMatch(/Tiny-Llama-3B-Instruct-F16\.gguf$/);
    const byRepo = await findLmStudioGguf(root, 'lmstudio-community/tiny-llama-3b-instruct-gguf');
    expect(byRepo?.path).toMatch(/Tiny-Llama-3B-Instruct-(F16|Q8_0)\.gguf$/);
    expect(await findLmStudioGguf(root, 'mmproj-tiny-llama')).toBeNull();
    expect(await findLmStudioGguf(join(home, 'no-such-folder'), 'anything')).toBeNull();
  });

  it('fills size, quantisation, parameters and architecture for each layout', async () => {
    const roots = await defaultModelRoots({ home });
    const lms = await discoverGguf('tiny-llama-3b-instruct@q8_0', { roots, providerKind: 'lmstudio' });
    expect(lms?.info).toMatchObject({ architecture: 'llama', quantization: 'Q8_0', block_count: 1 });
    expect(lms?.info.file_size_bytes).toBeGreaterThan(0);
    expect(lms?.info.parameter_count).toBe(tinyLlama({ ...small, type: 'Q8_0' }).parameters);
    const legacy = await discoverGguf('legacy-model', { roots, providerKind: 'lmstudio' });
    expect(legacy?.location.path).toContain(join('.cache', 'lm-studio'));
    const ollama = await discoverGguf('tinyllama:latest', { roots });
    expect(ollama?.info).toMatchObject({ name: 'ollama-tiny', quantization: 'F16' });
    const served = await discoverGguf('whatever-the-alias', { roots, baseUrl: propsUrl, providerKind: 'llamacpp' });
    expect(served?.location).toMatchObject({ source: 'llamacpp', path: propsPath });
    expect(served?.info.quantization).toBe('F16');
  });

  it('reads llama.cpp /props, and is null (not an error) when nothing matches', async () => {
    expect(await llamaCppModelPath(propsUrl)).toBe(propsPath);
    expect(await llamaCppModelPath('http://127.0.0.1:1/v1', { timeoutMs: 500 })).toBeNull();
    const roots = await defaultModelRoots({ home });
    expect(await findGguf('gpt-4o', { roots, baseUrl: 'http://127.0.0.1:1/v1' })).toBeNull();
  });
});
