import { stat } from 'node:fs/promises';
import { gguf, GGMLFileQuantizationType, type GGUFTensorInfo } from '@huggingface/gguf';
import { finiteNumber, nonEmptyString as str } from '@crucibleforge/core';
import { speedError } from './errors';

/** What a local GGUF file's header says, plus the bytes one decoded token reads. */
export interface GgufInfo {
  path: string;
  file_size_bytes: number;
  architecture: string | null;
  name: string | null;
  /** general.file_type as a label, e.g. Q4_K_M. */
  quantization: string | null;
  parameter_count: number | null;
  context_length: number | null;
  block_count: number | null;
  expert_count: number | null;
  expert_used_count: number | null;
  tensor_bytes: number;
  /** token_embd.weight */
  embedding_bytes: number;
  /** true when there is no output.weight, so the embedding table doubles as the output matrix. */
  embedding_tied: boolean;
  /** Routed-expert tensors (`*_exps`), all experts. */
  expert_bytes: number;
  /** Tensors no decode step reads (multi-token-prediction `nextn` layers). */
  skipped_bytes: number;
  /**
   * KV-cache bytes one token of context adds (an F16 cache: layers × KV heads × (key + value width) × 2);
   * a decoded token at depth d reads d × this. Null when the header lacks the attention shape.
   */
  kv_bytes_per_position: number | null;
  /**
   * Weight bytes read per decoded token: all tensors, minus the embedding table except one row
   * (unless tied), minus skipped tensors, with routed experts scaled by used ÷ total experts.
   */
  active_bytes_per_token: number;
}

type Meta = Record<string, unknown>;

/** GGUF stores 64-bit counts as bigints. */
function num(value: unknown): number | null {
  return typeof value === 'bigint' ? Number(value) : finiteNumber(value);
}

/** Byte size of every tensor from the gaps between data offsets (exact, no type table needed). */
export function tensorSizes(tensors: readonly GGUFTensorInfo[], dataBytes: number): Map<string, number> {
  const sorted = [...tensors].sort((a, b) => (a.offset < b.offset ? -1 : a.offset > b.offset ? 1 : 0));
  const sizes = new Map<string, number>();
  sorted.forEach((tensor, i) => {
    const next = sorted[i + 1];
    const end = next ? Number(next.offset) : dataBytes;
    sizes.set(tensor.name, Math.max(0, end - Number(tensor.offset)));
  });
  return sizes;
}

/** The active-weight arithmetic of a GGUF file, separated from reading it (testable with plain data). */
export function activeWeights(
  tensors: readonly GGUFTensorInfo[],
  dataBytes: number,
  experts: { count: number | null; used: number | null },
) {
  const sizes = tensorSizes(tensors, dataBytes);
  let total = 0;
  let embedding = 0;
  let embeddingRows = 1;
  let expertBytes = 0;
  let skipped = 0;
  let hasOutput = false;
  for (const tensor of tensors) {
    const bytes = sizes.get(tensor.name) ?? 0;
    total += bytes;
    if (tensor.name === 'token_embd.weight') {
      embedding = bytes;
      embeddingRows = Math.max(1, Number(tensor.shape[1] ?? 1n));
    } else if (tensor.name === 'output.weight') hasOutput = true;
    else if (/\.nextn\./.test(tensor.name)) skipped += bytes;
    else if (/_exps\./.test(tensor.name)) expertBytes += bytes;
  }
  const share = experts.count && experts.used && experts.count > 0 ? Math.min(1, experts.used / experts.count) : 1;
  const embeddingRead = hasOutput ? embedding / embeddingRows : embedding;
  const active = total - embedding + embeddingRead - skipped - expertBytes + expertBytes * share;
  return { total, embedding, tied: !hasOutput, expertBytes, skipped, active };
}

/** Bytes per element of llama.cpp's default KV cache (F16). */
export const KV_CACHE_BYTES_PER_ELEMENT = 2;

/** KV-cache bytes per position from the attention shape (a per-layer KV head list is summed). */
export function kvBytesPerPosition(meta: Meta, arch: string | null): number | null {
  if (!arch) return null;
  const n = (suffix: string) => num(meta[`${arch}.${suffix}`]);
  const layers = n('block_count');
  const embedding = n('embedding_length');
  const headsRaw = meta[`${arch}.attention.head_count`];
  const heads = Array.isArray(headsRaw) ? num(headsRaw[0]) : num(headsRaw);
  const kvRaw = meta[`${arch}.attention.head_count_kv`] ?? headsRaw;
  if (!layers || !heads) return null;
  const keyLength = n('attention.key_length') ?? (embedding ? embedding / heads : null);
  const valueLength = n('attention.value_length') ?? keyLength;
  if (!keyLength || !valueLength) return null;
  const kvHeadsTotal = Array.isArray(kvRaw) ? kvRaw.reduce((sum: number, h) => sum + (num(h) ?? 0), 0) : (num(kvRaw) ?? heads) * layers;
  return Math.round(kvHeadsTotal * (keyLength + valueLength) * KV_CACHE_BYTES_PER_ELEMENT);
}

function quantLabel(fileType: unknown): string | null {
  const n = num(fileType);
  if (n === null) return null;
  const label = (GGMLFileQuantizationType as unknown as Record<number, string>)[n];
  return typeof label === 'string' ? label : `file_type ${n}`;
}

/**
 * Reads a local GGUF file's header with @huggingface/gguf (no tensor data is loaded): size,
 * quantisation, parameter count, expert counts and the active bytes per token for the roofline.
 */
export async function readGgufInfo(path: string): Promise<GgufInfo> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (error) {
    throw speedError('SPEED_GGUF', `cannot read GGUF file ${path}: ${(error as Error).message}`, { cause: error, details: { path } });
  }
  let parsed: Awaited<ReturnType<typeof gguf>> & { parameterCount?: number };
  try {
    parsed = await gguf(path, { allowLocalFile: true, computeParametersCount: true });
  } catch (error) {
    throw speedError('SPEED_GGUF', `${path} is not a readable GGUF file: ${(error as Error).message}`, { cause: error, details: { path } });
  }
  const meta = parsed.metadata as unknown as Meta;
  const arch = str(meta['general.architecture']);
  const key = (suffix: string) => (arch ? num(meta[`${arch}.${suffix}`]) : null);
  const experts = { count: key('expert_count'), used: key('expert_used_count') };
  const dataBytes = size - Number(parsed.tensorDataOffset);
  const w = activeWeights(parsed.tensorInfos, dataBytes, experts);
  return {
    path,
    file_size_bytes: size,
    architecture: arch,
    name: str(meta['general.name']),
    quantization: quantLabel(meta['general.file_type']),
    parameter_count: parsed.parameterCount ?? null,
    context_length: key('context_length'),
    block_count: key('block_count'),
    expert_count: experts.count,
    expert_used_count: experts.used,
    tensor_bytes: w.total,
    embedding_bytes: w.embedding,
    embedding_tied: w.tied,
    expert_bytes: w.expertBytes,
    skipped_bytes: w.skipped,
    kv_bytes_per_position: kvBytesPerPosition(meta, arch),
    active_bytes_per_token: Math.round(w.active),
  };
}
