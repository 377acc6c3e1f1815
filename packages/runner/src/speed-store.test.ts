import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SpeedReport } from '@crucibleforge/speed';
import { describe, expect, it } from 'vitest';
import { readRunSpeed, writeRunSpeed } from './speed-store';

/** The part of a speed report the store reads (a whole one comes from runSpeedBenchmark; see run-speed.test.ts). */
const report = (model: string, decode: number) => ({ model, kind: 'speed', summary: { model, ttft_s: 0.2, decode_tps: decode, prefill_tps: null } }) as unknown as SpeedReport;

describe('speed.json in the run folder', () => {
  it('keeps one report per label, is null when absent, and names a bad file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cf-speed-'));
    await mkdir(join(dir, 'run-1'));
    expect(await readRunSpeed(dir, 'run-1')).toBeNull();
    expect(await writeRunSpeed(dir, 'run-1', 'fast', report('org/fast-8b', 41.5))).toBe(join(dir, 'run-1', 'speed.json'));
    await Promise.all([writeRunSpeed(dir, 'run-1', 'slow', report('slow', 9)), writeRunSpeed(dir, 'run-1', 'fast', report('org/fast-8b', 42))]);
    const stored = await readRunSpeed(dir, 'run-1');
    expect(stored?.map((s) => [s.model, s.summary.model, s.summary.decode_tps, s.report?.model])).toEqual([
      ['slow', 'slow', 9, 'slow'],
      ['fast', 'fast', 42, 'org/fast-8b'],
    ]);
    expect(JSON.parse(await readFile(join(dir, 'run-1', 'speed.json'), 'utf8')).schema_version).toBe(2);
    await writeFile(join(dir, 'run-1', 'speed.json'), '{"models": [{"model": "m"}]}');
    await expect(readRunSpeed(dir, 'run-1')).rejects.toThrow(/run-1\/speed\.json: field "models\[0\]"/);
    await expect(readRunSpeed(dir, '../x')).rejects.toThrow(/invalid run id/);
  });

  it('still reads an old file of medians', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cf-speed-'));
    await mkdir(join(dir, 'run-1'));
    await writeFile(join(dir, 'run-1', 'speed.json'), JSON.stringify({ schema_version: 1, speed: [{ model: 'm', ttft_s: 1, decode_tps: 2, prefill_tps: null }] }));
    expect(await readRunSpeed(dir, 'run-1')).toEqual([{ model: 'm', summary: { model: 'm', ttft_s: 1, decode_tps: 2, prefill_tps: null }, report: null }]);
  });
});
