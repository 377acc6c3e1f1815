import { casesError } from '../errors';
import { hash32, prng, randInt } from '../prng';
import type { HaystackSpec } from '../schema/common';
import * as W from './words';

/** The token estimate used everywhere in this package: characters / 4, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export interface Haystack {
  text: string;
  /** Paragraphs in the final document (filler + inserted). */
  paragraphs: number;
  tokens: number;
  /** Paragraph index of each needle, in spec order. */
  needleIndexes: number[];
  /** Paragraph indexes of the counted sentence. */
  countIndexes: number[];
  /** Paragraph index of each scattered line, in order. */
  scatterIndexes: number[];
  /** The document without any inserted sentence (for verify: answers must not occur in filler). */
  filler: string;
  /** What it was built from (placeholders filled), so it can be rebuilt. */
  spec: HaystackSpec;
  seed: number;
}

type Rand = () => number;
const pick = <T>(rand: Rand, list: readonly T[]): T => list[randInt(rand, 0, list.length - 1)]!;
const pad = (n: number) => String(n).padStart(2, '0');

function chronicleParagraph(rand: Rand): string {
  const n = randInt(rand, 4, 7);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    if (rand() < 0.25) {
      out.push(pick(rand, W.TOWN_REMARKS));
      continue;
    }
    const who = rand() < 0.5 ? pick(rand, W.TOWN_GROUPS) : pick(rand, W.PEOPLE);
    const tail = pick(rand, W.TOWN_TAILS);
    out.push(`${pick(rand, W.TOWN_TIMES)}, ${who} ${pick(rand, W.TOWN_DEEDS)}${tail ? ` ${tail}` : ''}.`);
  }
  return out.join(' ');
}

function logParagraph(rand: Rand, clock: { minutes: number }): string {
  const n = randInt(rand, 4, 7);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    clock.minutes += randInt(rand, 3, 47);
    const day = 1 + Math.floor(clock.minutes / 1440);
    const hh = Math.floor((clock.minutes % 1440) / 60);
    const mm = clock.minutes % 60;
    const who = pick(rand, W.PEOPLE).split(' ')[1];
    lines.push(`Day ${day} ${pad(hh)}:${pad(mm)} [${pick(rand, W.DEPOT_SITES)}] ${pick(rand, W.DEPOT_EVENTS)} by ${who}; ${pick(rand, W.DEPOT_NOTES)}.`);
  }
  return lines.join('\n');
}

function inventoryParagraph(rand: Rand): string {
  const n = randInt(rand, 3, 6);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const aisle = randInt(rand, 1, 30);
    const bay = 'ABCDEFGH'[randInt(rand, 0, 7)];
    out.push(
      `Aisle ${aisle}, bay ${bay}: ${randInt(rand, 2, 60)} crates of ${pick(rand, W.LEDGER_ITEMS)} from ${pick(rand, W.LEDGER_SUPPLIERS)}, ${pick(rand, W.LEDGER_CONDITIONS)}.`,
    );
  }
  return out.join(' ');
}

/** Filler paragraphs until the document (with the inserted sentences) reaches about `tokens`. */
function filler(spec: HaystackSpec, seed: number, reserveChars: number): string[] {
  const rand = prng(hash32(spec.style, seed));
  const clock = { minutes: 6 * 60 };
  const target = spec.tokens * 4 - reserveChars;
  const paragraphs: string[] = [];
  let chars = 0;
  while (chars < target) {
    const p = spec.style === 'chronicle' ? chronicleParagraph(rand) : spec.style === 'log' ? logParagraph(rand, clock) : inventoryParagraph(rand);
    paragraphs.push(p);
    chars += p.length + 2;
  }
  return paragraphs;
}

/** The paragraphs `scatter` inserts: each non-empty line of its text (trimmed), after its prefix. */
export function scatteredLines(spec: HaystackSpec): string[] {
  const s = spec.scatter;
  if (!s) return [];
  return s.lines
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .map((line) => `${s.prefix ?? ''}${line}`);
}

/** `k` seeded gaps in 0..n, ascending: distinct while there are enough gaps. */
function spreadGaps(rand: Rand, k: number, n: number): number[] {
  if (k > n + 1) return Array.from({ length: k }, () => randInt(rand, 0, n)).sort((a, b) => a - b);
  const gaps = new Set<number>();
  while (gaps.size < k) gaps.add(randInt(rand, 0, n));
  return [...gaps].sort((a, b) => a - b);
}

/**
 * Builds the haystack: seeded filler, then each needle as its own paragraph at round(depth × paragraphs),
 * the counted sentence at `times` distinct seeded positions and the scattered lines, in order, at seeded
 * positions spread over the document. Same spec + seed → same text, always. Inserted texts must already
 * have their placeholders filled.
 */
export function buildHaystack(spec: HaystackSpec, seed: number): Haystack {
  const needles = spec.needles ?? [];
  const count = spec.count;
  const scattered = scatteredLines(spec);
  const reserve =
    needles.reduce((n, x) => n + x.text.length + 2, 0) +
    (count ? (count.text.length + 2) * count.times : 0) +
    scattered.reduce((n, line) => n + line.length + 2, 0);
  const base = filler(spec, seed, reserve);
  const n = base.length;
  // Insertions are described against the filler's gaps (0..n), then applied from the back.
  const inserts: { gap: number; order: number; text: string; kind: 'needle' | 'count' | 'scatter'; ref: number }[] = [];
  needles.forEach((needle, i) => {
    const depth = Number(needle.depth);
    if (!(depth >= 0 && depth <= 1)) throw casesError('CASES_TEMPLATE', `haystack.needles[${i}].depth must be a number in [0, 1], got ${JSON.stringify(needle.depth)}`);
    inserts.push({ gap: Math.round(depth * n), order: i, text: needle.text, kind: 'needle', ref: i });
  });
  if (count) {
    const gaps = spreadGaps(prng(hash32('count', seed + 7919)), Math.min(count.times, n + 1), n);
    gaps.forEach((gap, i) => inserts.push({ gap, order: needles.length + i, text: count.text, kind: 'count', ref: i }));
  }
  if (scattered.length > 0) {
    const after = needles.length + (count?.times ?? 0);
    const gaps = spreadGaps(prng(hash32('scatter', seed + 104729)), scattered.length, n);
    scattered.forEach((text, i) => inserts.push({ gap: gaps[i]!, order: after + i, text, kind: 'scatter', ref: i }));
  }
  // Within one gap, keep spec order: needles first (in order), then counted sentences, then scattered lines.
  inserts.sort((a, b) => a.gap - b.gap || a.order - b.order);
  const doc: string[] = [];
  const needleIndexes = new Array<number>(needles.length).fill(-1);
  const countIndexes: number[] = [];
  const scatterIndexes: number[] = [];
  let k = 0;
  for (let gap = 0; gap <= n; gap++) {
    while (k < inserts.length && inserts[k]!.gap === gap) {
      const ins = inserts[k]!;
      if (ins.kind === 'needle') needleIndexes[ins.ref] = doc.length;
      else if (ins.kind === 'count') countIndexes.push(doc.length);
      else scatterIndexes.push(doc.length);
      doc.push(ins.text);
      k++;
    }
    if (gap < n) doc.push(base[gap]!);
  }
  const text = doc.join('\n\n');
  return { text, paragraphs: doc.length, tokens: estimateTokens(text), needleIndexes, countIndexes, scatterIndexes, filler: base.join('\n\n'), spec, seed };
}
