import { seededRandom } from '@crucibleforge/core';
import type { ParamSpec } from './schema/common';

/** 32-bit FNV-1a of a string, mixed with a number: stable across platforms and versions. */
export function hash32(text: string, salt = 0): number {
  let h = (0x811c9dc5 ^ salt) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** mulberry32 (core's seededRandom): a small, fast, deterministic PRNG; returns floats in [0, 1). */
export function prng(seed: number): () => number {
  return seededRandom(seed);
}

/** An integer in [min, max], inclusive. */
export function randInt(rand: () => number, min: number, max: number): number {
  return min + Math.floor(rand() * (max - min + 1));
}

/**
 * The seed one case gets in a run: derived from the run seed and the case id, so two cases of a run draw
 * independently and the same run seed always gives the same variant. A positive 31-bit integer.
 */
export function caseSeed(runSeed: number, caseId: string): number {
  return hash32(caseId, runSeed | 0) & 0x7fffffff;
}

/**
 * Draws every parameter from the seed. Each parameter has its own stream (seeded by its name), so adding
 * or reordering parameters never changes the others' values.
 */
export function drawParams(params: Record<string, ParamSpec> | undefined, seed: number): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const name of Object.keys(params ?? {}).sort()) {
    const spec = params![name]!;
    const rand = prng(hash32(name, seed));
    if ('int' in spec) {
      const [lo, hi] = spec.int;
      out[name] = randInt(rand, Math.min(lo, hi), Math.max(lo, hi));
    } else {
      out[name] = spec.choice[randInt(rand, 0, spec.choice.length - 1)]!;
    }
  }
  return out;
}
