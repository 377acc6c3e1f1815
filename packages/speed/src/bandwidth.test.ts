import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastLevelCacheBytes, measureHostBandwidth } from './bandwidth';

describe('measureHostBandwidth', () => {
  it('reports the best round as 2 × bytes × threads ÷ the round time on the injected clock', async () => {
    // Every reading of the clock advances it 1 ms: each round (two readings) takes exactly 1 ms.
    let t = 0;
    const clock = { now: () => (t += 1) };
    const probe = await measureHostBandwidth({ threads: 2, bytesPerThread: 2 ** 20, rounds: 3, clock });
    expect(probe).toMatchObject({ threads: 2, bytes_per_thread: 2 ** 20, rounds: 3, method: 'stream-copy' });
    expect(probe.samples_gbs).toEqual([1, 1, 1].map(() => (2 * 2 ** 20 * 2) / 0.001 / 1e9));
    expect(probe.bandwidth_gbs).toBe(Math.max(...probe.samples_gbs));
  });

  it('measures a real, positive bandwidth on this machine', async () => {
    const probe = await measureHostBandwidth({ threads: 1, bytesPerThread: 16 * 2 ** 20, rounds: 2 });
    expect(probe.bandwidth_gbs).toBeGreaterThan(0);
    expect(probe.samples_gbs).toHaveLength(2);
    expect(probe.elapsed_s).toBeGreaterThan(0);
  });
});

describe('lastLevelCacheBytes', () => {
  it('reads the largest data/unified cache level from a sysfs tree; null where there is none', async () => {
    const root = await mkdtemp(join(tmpdir(), 'cf-sysfs-'));
    try {
      const caches = [
        ['1', 'Data', '32K'],
        ['1', 'Instruction', '64K'],
        ['2', 'Unified', '512K'],
        ['3', 'Unified', '32768K'],
      ];
      for (const [i, [level, type, size]] of caches.entries()) {
        const dir = join(root, 'devices/system/cpu/cpu0/cache', `index${i}`);
        await mkdir(dir, { recursive: true });
        await Promise.all([writeFile(join(dir, 'level'), `${level}\n`), writeFile(join(dir, 'type'), `${type}\n`), writeFile(join(dir, 'size'), `${size}\n`)]);
      }
      expect(await lastLevelCacheBytes(root)).toBe(32 * 2 ** 20);
      expect(await lastLevelCacheBytes(join(root, 'nothing-here'))).toBeNull();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
