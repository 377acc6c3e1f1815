import { seededRandom } from '@crucibleforge/core';
import { gguf, writeGguf, type GgmlTypeName, type GgufTensor, type GgufValue } from './gguf-writer';

/** The shape of a random-weight llama model (defaults: a 2-layer, 64-wide toy of about 0.2 M parameters). */
export interface TinyLlamaOptions {
  /** n_embd (default 64; a multiple of 32 and of `heads`). */
  embedding?: number;
  /** block_count (default 2). */
  layers?: number;
  /** attention heads (default 4). */
  heads?: number;
  /** key/value heads (default `heads`; fewer is grouped-query attention). */
  kvHeads?: number;
  /** feed-forward width (default 4 × embedding, rounded to 32). */
  feedForward?: number;
  /** llama.context_length (default 2048). */
  context?: number;
  /** Matrix weights: F16 (default), Q8_0 or F32. Norms are always F32. */
  type?: GgmlTypeName;
  /** Seed of the weights (default 1): the same options write the same bytes. */
  seed?: number;
  /** general.name (default "tiny-llama-<type>"). */
  name?: string;
  /**
   * Write a separate output.weight (default true; its control-token and high-byte rows are zero, so greedy
   * decoding never ends early nor breaks UTF-8); false ties it to the embedding.
   */
  outputMatrix?: boolean;
}

/** What the writer made, for tests that check the parser and the engine against it. */
export interface TinyLlama {
  bytes: Buffer;
  name: string;
  /** Every weight, counted as llama.cpp counts them. */
  parameters: number;
  vocabulary: string[];
  type: GgmlTypeName;
  /** general.file_type written (0 F32, 1 F16, 7 Q8_0). */
  fileType: number;
  embedding: number;
  layers: number;
  heads: number;
  kvHeads: number;
  context: number;
}

const FILE_TYPES: Record<GgmlTypeName, number> = { F32: 0, F16: 1, Q8_0: 7 };
/** token_type values: 1 normal, 2 unknown, 3 control, 6 byte. */
const NORMAL = 1;
const UNKNOWN = 2;
const CONTROL = 3;
const BYTE = 6;

/**
 * A byte-level SentencePiece vocabulary: <unk>, <s>, </s>, the 256 byte-fallback tokens <0x00>…<0xFF>,
 * then one token per printable ASCII character (space spelt "▁", as SentencePiece does). Any text
 * tokenises: ASCII characters to their own token, everything else to its UTF-8 bytes.
 */
export function byteVocabulary(): { tokens: string[]; types: number[]; scores: number[] } {
  const tokens = ['<unk>', '<s>', '</s>'];
  const types = [UNKNOWN, CONTROL, CONTROL];
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(BYTE);
  }
  for (let c = 0x20; c < 0x7f; c++) {
    tokens.push(c === 0x20 ? '\u2581' : String.fromCharCode(c));
    types.push(NORMAL);
  }
  return { tokens, types, scores: tokens.map((_, i) => (types[i] === NORMAL ? -i : 0)) };
}

/**
 * A random-weight llama model as GGUF bytes that llama.cpp loads and generates from (gibberish:
 * this tests mechanics and speed, never content). Nothing is downloaded; a few hundred KB by default.
 */
export function tinyLlama(options: TinyLlamaOptions = {}): TinyLlama {
  const n = options.embedding ?? 64;
  const layers = options.layers ?? 2;
  const heads = options.heads ?? 4;
  const kvHeads = options.kvHeads ?? heads;
  const ff = options.feedForward ?? Math.ceil((4 * n) / 32) * 32;
  const context = options.context ?? 2048;
  const type = options.type ?? 'F16';
  const withOutput = options.outputMatrix ?? true;
  if (n % 32 !== 0 || n % heads !== 0) throw new Error(`embedding ${n} must be a multiple of 32 and of heads (${heads})`);
  if (heads % kvHeads !== 0) throw new Error(`heads (${heads}) must be a multiple of kvHeads (${kvHeads})`);
  if (ff % 32 !== 0) throw new Error(`feedForward ${ff} must be a multiple of 32`);
  const headDim = n / heads;
  const kv = headDim * kvHeads;
  const vocab = byteVocabulary();
  const nVocab = vocab.tokens.length;
  const random = seededRandom(options.seed ?? 1); // the bytes depend only on the options
  const weights = (count: number, scale: number) => {
    const out = new Float32Array(count);
    for (let i = 0; i < count; i++) out[i] = (random() * 2 - 1) * scale;
    return out;
  };
  const ones = (count: number) => new Float32Array(count).fill(1);
  const matrix = (name: string, cols: number, rows: number): GgufTensor => ({
    name,
    dims: [cols, rows],
    type,
    values: weights(cols * rows, 1 / Math.sqrt(cols)),
  });
  const tensors: GgufTensor[] = [matrix('token_embd.weight', n, nVocab)];
  for (let i = 0; i < layers; i++) {
    const p = `blk.${i}`;
    tensors.push(
      { name: `${p}.attn_norm.weight`, dims: [n], type: 'F32', values: ones(n) },
      matrix(`${p}.attn_q.weight`, n, n),
      matrix(`${p}.attn_k.weight`, n, kv),
      matrix(`${p}.attn_v.weight`, n, kv),
      matrix(`${p}.attn_output.weight`, n, n),
      { name: `${p}.ffn_norm.weight`, dims: [n], type: 'F32', values: ones(n) },
      matrix(`${p}.ffn_gate.weight`, n, ff),
      matrix(`${p}.ffn_down.weight`, ff, n),
      matrix(`${p}.ffn_up.weight`, n, ff),
    );
  }
  tensors.push({ name: 'output_norm.weight', dims: [n], type: 'F32', values: ones(n) });
  if (withOutput) {
    // Control tokens (<unk>, <s>, </s>) and the bytes 0x80–0xFF get zero rows: a logit of 0 among ~220 random
    // ones is never the largest, so greedy decoding neither stops at a random end-of-text nor emits broken
    // UTF-8 (which an engine holds back), and the reply has exactly max_tokens tokens.
    const output = matrix('output.weight', n, nVocab);
    output.values!.fill(0, 0, 3 * n);
    output.values!.fill(0, (3 + 0x80) * n, (3 + 0x100) * n);
    tensors.push(output);
  }
  const parameters = tensors.reduce((sum, t) => sum + t.dims.reduce((a, b) => a * b, 1), 0);
  const name = options.name ?? `tiny-llama-${type.toLowerCase().replace('_', '')}`;
  const metadata: Record<string, GgufValue> = {
    'general.architecture': 'llama',
    'general.name': name,
    'general.file_type': FILE_TYPES[type],
    'llama.context_length': context,
    'llama.embedding_length': n,
    'llama.block_count': layers,
    'llama.feed_forward_length': ff,
    'llama.attention.head_count': heads,
    'llama.attention.head_count_kv': kvHeads,
    'llama.rope.dimension_count': headDim,
    'llama.attention.layer_norm_rms_epsilon': gguf.f32(1e-5),
    'llama.vocab_size': nVocab,
    'tokenizer.ggml.model': 'llama',
    'tokenizer.ggml.tokens': vocab.tokens,
    'tokenizer.ggml.scores': new Float32Array(vocab.scores),
    'tokenizer.ggml.token_type': new Int32Array(vocab.types),
    'tokenizer.ggml.unknown_token_id': 0,
    'tokenizer.ggml.bos_token_id': 1,
    'tokenizer.ggml.eos_token_id': 2,
    'tokenizer.ggml.add_bos_token': true,
    'tokenizer.ggml.add_eos_token': false,
  };
  return {
    bytes: writeGguf({ metadata, tensors }),
    name,
    parameters,
    vocabulary: vocab.tokens,
    type,
    fileType: FILE_TYPES[type],
    embedding: n,
    layers,
    heads,
    kvHeads,
    context,
  };
}

/** Writes {@link tinyLlama} to `path` (parent folders made) and returns what was written. */
export async function writeTinyLlama(path: string, options: TinyLlamaOptions = {}): Promise<TinyLlama & { path: string }> {
  const { mkdir, writeFile } = await import('node:fs/promises');
  const { dirname } = await import('node:path');
  const model = tinyLlama(options);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, model.bytes);
  return { ...model, path };
}
