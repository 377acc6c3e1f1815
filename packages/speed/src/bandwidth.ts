import { readdir, readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { systemClock, type Clock } from '@crucibleforge/core';

/** A STREAM-like copy measurement of this machine's memory bandwidth. */
export interface HostBandwidth {
  /** Best copy bandwidth over the rounds, GB/s (bytes read + bytes written, as STREAM counts Copy). */
  bandwidth_gbs: number;
  /** Every timed round, GB/s. */
  samples_gbs: number[];
  threads: number;
  /** Array size per thread (each thread copies its own source into its own destination). */
  bytes_per_thread: number;
  rounds: number;
  /** Wall time of the whole probe including worker start-up, seconds. */
  elapsed_s: number;
  method: 'stream-copy';
}

export interface BandwidthProbeOptions {
  /** Parallel copies (default: the CPUs Node may use); decode on CPU uses every core too. */
  threads?: number;
  /** Bytes per array per thread (default 64 MiB, far beyond any cache). */
  bytesPerThread?: number;
  /** Timed rounds after one warm-up (default 4); the best counts, as in STREAM. */
  rounds?: number;
  clock?: Clock;
}

// Each worker owns two arrays and copies one into the other (memcpy) when told; no shared memory, no locks.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const src = new Uint8Array(workerData.bytes).fill(1);
const dst = new Uint8Array(workerData.bytes);
parentPort.on('message', () => { dst.set(src); parentPort.postMessage(dst[dst.length - 1]); });
parentPort.postMessage('ready');
`;

function once(worker: Worker): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const onMessage = (value: unknown) => {
      worker.off('error', onError);
      resolve(value);
    };
    const onError = (error: Error) => {
      worker.off('message', onMessage);
      reject(error);
    };
    worker.once('message', onMessage);
    worker.once('error', onError);
  });
}

/**
 * Measures host memory bandwidth like STREAM's Copy kernel: `threads` workers each copy a 64 MiB array
 * into another at the same moment; a round's bandwidth is 2 × bytes × threads ÷ the round's wall time on
 * the injected clock; the best of `rounds` (after a warm-up) is reported. Takes well under a second.
 */
export async function measureHostBandwidth(options: BandwidthProbeOptions = {}): Promise<HostBandwidth> {
  const clock = options.clock ?? systemClock;
  const threads = Math.max(1, options.threads ?? availableParallelism());
  const bytes = Math.max(1 << 20, Math.floor(options.bytesPerThread ?? 64 * 2 ** 20));
  const rounds = Math.max(1, options.rounds ?? 4);
  const started = clock.now();
  const workers = Array.from({ length: threads }, () => new Worker(WORKER, { eval: true, workerData: { bytes } }));
  try {
    await Promise.all(workers.map(once));
    const round = async () => {
      const t0 = clock.now();
      const done = Promise.all(workers.map(once));
      for (const worker of workers) worker.postMessage('go');
      await done;
      return (clock.now() - t0) / 1000;
    };
    await round();
    const samples: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const seconds = await round();
      samples.push(seconds > 0 ? (2 * bytes * threads) / seconds / 1e9 : 0);
    }
    return {
      bandwidth_gbs: Math.max(...samples),
      samples_gbs: samples,
      threads,
      bytes_per_thread: bytes,
      rounds,
      elapsed_s: (clock.now() - started) / 1000,
      method: 'stream-copy',
    };
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** `32768K`, `1M`, `512` (sysfs cache sizes) → bytes; null when unreadable. */
function cacheSize(text: string): number | null {
  const m = /^(\d+)\s*([KMG]?)/i.exec(text.trim());
  if (!m) return null;
  const unit = { '': 1, K: 2 ** 10, M: 2 ** 20, G: 2 ** 30 }[m[2]!.toUpperCase() as '' | 'K' | 'M' | 'G'];
  return Number(m[1]) * unit;
}

/**
 * The largest data or unified CPU cache of this machine, in bytes, from Linux sysfs
 * (`<sysRoot>/devices/system/cpu/cpu0/cache/index*`: level, type, size); null where sysfs has none
 * (macOS, Windows, containers hiding it). Weights smaller than this can stay in cache while decoding.
 */
export async function lastLevelCacheBytes(sysRoot = '/sys'): Promise<number | null> {
  const dir = join(sysRoot, 'devices/system/cpu/cpu0/cache');
  let entries: string[];
  try {
    entries = (await readdir(dir)).filter((e) => /^index\d+$/.test(e));
  } catch {
    return null;
  }
  let best: { level: number; bytes: number } | null = null;
  for (const entry of entries) {
    const read = (name: string) => readFile(join(dir, entry, name), 'utf8').then((t) => t.trim(), () => null);
    const [level, type, size] = await Promise.all([read('level'), read('type'), read('size')]);
    const bytes = size === null ? null : cacheSize(size);
    if (level === null || bytes === null || type === 'Instruction') continue;
    if (!best || Number(level) > best.level || (Number(level) === best.level && bytes > best.bytes)) best = { level: Number(level), bytes };
  }
  return best?.bytes ?? null;
}
