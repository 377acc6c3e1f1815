import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGgufInfo } from './gguf';
import { tinyLlama, writeGguf } from './testing';

/** Zero-filled F32 tensors: the offsets and sizes are what the header parser reads. */
const f32 = (tensors: { name: string; dims: number[] }[]) => tensors.map((t) => ({ ...t, type: 'F32' as const }));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cf-gguf-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readGgufInfo', () => {
  it('reads an MoE header and counts only the used experts and one embedding row', async () => {
    const path = join(dir, 'moe.gguf');
    await writeFile(
      path,
      writeGguf({
        metadata: {
          'general.architecture': 'qwen3moe',
          'general.name': 'Tiny MoE',
          'general.file_type': 15,
          'qwen3moe.context_length': 4096,
          'qwen3moe.block_count': 1,
          'qwen3moe.expert_count': 8,
          'qwen3moe.expert_used_count': 2,
        },
        tensors: f32([
          { name: 'token_embd.weight', dims: [8, 100] }, // 3200 bytes, 100 rows of 32
          { name: 'output.weight', dims: [8, 100] }, // 3200
          { name: 'blk.0.attn_q.weight', dims: [8, 8] }, // 256
          { name: 'blk.0.ffn_gate_exps.weight', dims: [8, 16, 8] }, // 4096
          { name: 'blk.0.ffn_up_exps.weight', dims: [8, 16, 8] }, // 4096
          { name: 'blk.0.ffn_down_exps.weight', dims: [16, 8, 8] }, // 4096
        ]),
      }),
    );
    const info = await readGgufInfo(path);
    expect(info).toMatchObject({
      architecture: 'qwen3moe',
      name: 'Tiny MoE',
      quantization: 'Q4_K_M',
      context_length: 4096,
      expert_count: 8,
      expert_used_count: 2,
      embedding_tied: false,
      tensor_bytes: 18944,
      expert_bytes: 12288,
      parameter_count: 18944 / 4,
    });
    // 32 (one embedding row) + 3200 (output) + 256 (attention) + 12288 × 2/8 (experts)
    expect(info.active_bytes_per_token).toBe(32 + 3200 + 256 + 3072);
  });

  it('keeps a tied embedding table whole (it is the output matrix too)', async () => {
    const path = join(dir, 'dense.gguf');
    await writeFile(
      path,
      writeGguf({
        metadata: { 'general.architecture': 'llama' },
        tensors: f32([
          { name: 'token_embd.weight', dims: [8, 100] },
          { name: 'blk.0.ffn_up.weight', dims: [8, 32] },
        ]),
      }),
    );
    const info = await readGgufInfo(path);
    expect(info.embedding_tied).toBe(true);
    expect(info.active_bytes_per_token).toBe(3200 + 1024);
    expect(info.expert_count).toBeNull();
    expect(info.kv_bytes_per_position).toBeNull(); // no attention shape in the header
  });

  it('reads a generated random-weight llama: parameters, quantisation and the KV cache per position', async () => {
    for (const [type, label] of [['F16', 'F16'], ['Q8_0', 'Q8_0']] as const) {
      const model = tinyLlama({ type, embedding: 64, layers: 2, heads: 4, kvHeads: 2 });
      const path = join(dir, `tiny-${type}.gguf`);
      await writeFile(path, model.bytes);
      const info = await readGgufInfo(path);
      expect(info).toMatchObject({ architecture: 'llama', quantization: label, parameter_count: model.parameters, block_count: 2, context_length: 2048 });
      expect(info.file_size_bytes).toBe(model.bytes.length);
      // 2 layers × 2 KV heads × (16 + 16) × 2 bytes
      expect(info.kv_bytes_per_position).toBe(2 * 2 * 32 * 2);
      // Q8_0 stores 34 bytes per 32 weights, F16 64: the matrices shrink to 17/32.
      if (type === 'Q8_0') expect(info.tensor_bytes).toBeLessThan(model.parameters * 1.1);
      else expect(info.tensor_bytes).toBeGreaterThan(model.parameters * 1.9);
    }
  });

  it('names the file when it is missing or not GGUF', async () => {
    await expect(readGgufInfo(join(dir, 'nope.gguf'))).rejects.toMatchObject({ code: 'SPEED_GGUF', message: expect.stringContaining('nope.gguf') });
    const bad = join(dir, 'bad.gguf');
    await writeFile(bad, 'not a gguf file at all');
    await expect(readGgufInfo(bad)).rejects.toMatchObject({ code: 'SPEED_GGUF', message: expect.stringContaining('bad.gguf') });
  });
});
