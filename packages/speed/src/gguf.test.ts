import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGgufInfo } from './gguf';

/** A minimal GGUF v3 writer for fixtures: string/u32 metadata, F32 tensors full of zeros. */
function writeGguf(meta: Record<string, string | number>, tensors: { name: string; dims: number[] }[]): Buffer {
  const parts: Buffer[] = [];
  const u32 = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32LE(n); parts.push(b); };
  const u64 = (n: number) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(n)); parts.push(b); };
  const str = (s: string) => { u64(Buffer.byteLength(s)); parts.push(Buffer.from(s)); };
  parts.push(Buffer.from('GGUF'));
  u32(3);
  u64(tensors.length);
  u64(Object.keys(meta).length);
  for (const [key, value] of Object.entries(meta)) {
    str(key);
    if (typeof value === 'string') { u32(8); str(value); } else { u32(4); u32(value); }
  }
  let offset = 0;
  const sizes = tensors.map((t) => t.dims.reduce((a, b) => a * b, 1) * 4);
  tensors.forEach((t, i) => {
    str(t.name);
    u32(t.dims.length);
    for (const d of t.dims) u64(d);
    u32(0); // F32
    u64(offset);
    offset += Math.ceil(sizes[i]! / 32) * 32;
  });
  const header = Buffer.concat(parts);
  const pad = Buffer.alloc((32 - (header.length % 32)) % 32);
  const data = Buffer.alloc(offset);
  return Buffer.concat([header, pad, data]);
}

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
      writeGguf(
        {
          'general.architecture': 'qwen3moe',
          'general.name': 'Tiny MoE',
          'general.file_type': 15,
          'qwen3moe.context_length': 4096,
          'qwen3moe.block_count': 1,
          'qwen3moe.expert_count': 8,
          'qwen3moe.expert_used_count': 2,
        },
        [
          { name: 'token_embd.weight', dims: [8, 100] }, // 3200 bytes, 100 rows of 32
          { name: 'output.weight', dims: [8, 100] }, // 3200
          { name: 'blk.0.attn_q.weight', dims: [8, 8] }, // 256
          { name: 'blk.0.ffn_gate_exps.weight', dims: [8, 16, 8] }, // 4096
          { name: 'blk.0.ffn_up_exps.weight', dims: [8, 16, 8] }, // 4096
          { name: 'blk.0.ffn_down_exps.weight', dims: [16, 8, 8] }, // 4096
        ],
      ),
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
      writeGguf({ 'general.architecture': 'llama' }, [
        { name: 'token_embd.weight', dims: [8, 100] },
        { name: 'blk.0.ffn_up.weight', dims: [8, 32] },
      ]),
    );
    const info = await readGgufInfo(path);
    expect(info.embedding_tied).toBe(true);
    expect(info.active_bytes_per_token).toBe(3200 + 1024);
    expect(info.expert_count).toBeNull();
  });

  it('names the file when it is missing or not GGUF', async () => {
    await expect(readGgufInfo(join(dir, 'nope.gguf'))).rejects.toMatchObject({ code: 'SPEED_GGUF', message: expect.stringContaining('nope.gguf') });
    const bad = join(dir, 'bad.gguf');
    await writeFile(bad, 'not a gguf file at all');
    await expect(readGgufInfo(bad)).rejects.toMatchObject({ code: 'SPEED_GGUF', message: expect.stringContaining('bad.gguf') });
  });
});
