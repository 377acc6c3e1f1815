import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRunSpeed, writeRunSpeed } from './speed-store';

describe('speed.json in the run folder', () => {
  it('round-trips the summaries, is null when absent, and names a bad file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cf-speed-'));
    await mkdir(join(dir, 'run-1'));
    expect(await readRunSpeed(dir, 'run-1')).toBeNull();
    const speed = [{ model: 'm', ttft_s: 0.2, decode_tps: 41.5, prefill_tps: null }];
    expect(await writeRunSpeed(dir, 'run-1', speed)).toBe(join(dir, 'run-1', 'speed.json'));
    expect(await readRunSpeed(dir, 'run-1')).toEqual(speed);
    await writeFile(join(dir, 'run-1', 'speed.json'), '{"speed": [{"ttft_s": 1}]}');
    await expect(readRunSpeed(dir, 'run-1')).rejects.toThrow(/run-1\/speed\.json: field "speed"/);
    await expect(readRunSpeed(dir, '../x')).rejects.toThrow(/invalid run id/);
  });
});
