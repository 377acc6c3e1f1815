import type { Clock } from '@crucibleforge/core';
import type { LlamaContextSequence, LlamaModel, Token } from 'node-llama-cpp';
import type { EngineInfo } from './engine';
import { engineError } from './errors';

/** llama-bench's knobs: `-p N` prompt tokens, `-n M` generated tokens, `-r` repetitions. */
export interface PpTgOptions {
  /** Prompt tokens evaluated in the pp test (default 512; 0 skips it). */
  promptTokens?: number;
  /** Tokens generated one by one in the tg test (default 128; 0 skips it). */
  generateTokens?: number;
  /** Timed repetitions of each test (default 5). */
  repetitions?: number;
  /** One untimed run of each test first (default true, as llama-bench does). */
  warmup?: boolean;
}

export interface PpTgTest {
  /** `pp512`, `tg128`: llama-bench's test names. */
  test: string;
  kind: 'pp' | 'tg';
  tokens: number;
  repetitions: number;
  /** Tokens per second, one per repetition. */
  samples_tps: number[];
  mean_tps: number;
  /** Sample standard deviation (n − 1); 0 with one repetition. */
  sd_tps: number;
  /** Seconds of each repetition. */
  samples_s: number[];
}

export interface PpTgReport {
  kind: 'pp-tg';
  engine: string;
  model: string;
  /** llama.cpp's model description, size in bytes and parameters: llama-bench's first columns. */
  model_description: string;
  size_bytes: number;
  parameters: number | null;
  gguf: string;
  threads: number;
  batch_size: number;
  context_size: number;
  tests: PpTgTest[];
}

export function meanSd(xs: readonly number[]): { mean: number; sd: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  if (xs.length < 2) return { mean, sd: 0 };
  const variance = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1);
  return { mean, sd: Math.sqrt(variance) };
}

const WORDS = 'the of and to in is that for it as with was on be by at this from or an are not have but had they which one you were all we her she there would their will when who him been has more if no out so said what up its about into than them can only other new some could time these two may then do first any my now such like our over man me even most made after also did many before must through back years where much your way well down should because each just those people how too little state good very make world still own see men work long get here between both life being under never day same another know while last might us great old year off come since against go came right used take three'.split(' ');

/** A prompt of exactly `count` real tokens of this model (deterministic words, tokenised, cut to length). */
export function benchTokens(model: LlamaModel, count: number): Token[] {
  let a = 7;
  const next = () => {
    a = (a * 1103515245 + 12345) % 2147483648;
    return a / 2147483648;
  };
  const tokens: Token[] = [];
  while (tokens.length < count) {
    const words: string[] = [];
    for (let i = 0; i < 64; i++) words.push(WORDS[Math.floor(next() * WORDS.length)]!);
    tokens.push(...model.tokenize(` ${words.join(' ')}`));
  }
  return tokens.slice(0, count);
}

interface BenchTarget {
  model: LlamaModel;
  sequence: LlamaContextSequence;
  info: EngineInfo;
}

async function promptProcessing(target: BenchTarget, tokens: Token[], clock: Clock): Promise<number> {
  await target.sequence.clearHistory();
  const start = clock.now();
  await target.sequence.evaluateWithoutGeneratingNewTokens(tokens);
  return (clock.now() - start) / 1000;
}

async function generation(target: BenchTarget, count: number, first: Token, clock: Clock): Promise<number> {
  await target.sequence.clearHistory();
  const start = clock.now();
  let made = 0;
  // Greedy, one token per evaluation; end-of-generation tokens do not stop it (llama-bench never stops early).
  for await (const token of target.sequence.evaluate([first], { temperature: 0 })) {
    void token;
    made += 1;
    if (made >= count) break;
  }
  return (clock.now() - start) / 1000;
}

/**
 * llama-bench's two tests on the loaded engine: pp N (N prompt tokens evaluated in batches, an empty
 * cache each time) and tg M (M tokens generated one at a time from a single start token), each after
 * one untimed warm-up, r repetitions, tokens/s as mean ± sample standard deviation.
 */
export async function benchPpTg(target: BenchTarget, options: PpTgOptions, clock: Clock): Promise<PpTgReport> {
  const pp = options.promptTokens ?? 512;
  const tg = options.generateTokens ?? 128;
  const reps = options.repetitions ?? 5;
  for (const [name, value, min] of [['promptTokens', pp, 0], ['generateTokens', tg, 0], ['repetitions', reps, 1]] as const) {
    if (!Number.isInteger(value) || value < min) throw engineError('ENGINE_BAD_OPTIONS', `${name} must be a whole number ≥ ${min}, got ${value}`);
  }
  const room = target.info.context_size;
  if (pp > room || tg + 1 > room) {
    throw engineError('ENGINE_CONTEXT_OVERFLOW', `pp ${pp} / tg ${tg} do not fit the ${room}-token context of ${target.info.model} (raise the context size)`);
  }
  const tests: PpTgTest[] = [];
  const run = async (kind: 'pp' | 'tg', tokens: number, once: () => Promise<number>) => {
    if (tokens === 0) return;
    if (options.warmup ?? true) await once();
    const seconds: number[] = [];
    for (let i = 0; i < reps; i++) seconds.push(await once());
    const samples = seconds.map((s) => (s > 0 ? tokens / s : 0));
    const { mean, sd } = meanSd(samples);
    tests.push({ test: `${kind}${tokens}`, kind, tokens, repetitions: reps, samples_tps: samples, mean_tps: mean, sd_tps: sd, samples_s: seconds });
  };
  const prompt = benchTokens(target.model, pp);
  await run('pp', pp, () => promptProcessing(target, prompt, clock));
  const start = target.model.tokens.bos ?? benchTokens(target.model, 1)[0]!;
  await run('tg', tg, () => generation(target, tg, start, clock));
  await target.sequence.clearHistory();
  return {
    kind: 'pp-tg',
    engine: target.info.engine,
    model: target.info.model,
    model_description: target.info.model_description,
    size_bytes: target.info.file_size_bytes,
    parameters: target.info.parameters,
    gguf: target.info.gguf,
    threads: target.info.threads,
    batch_size: target.info.batch_size,
    context_size: target.info.context_size,
    tests,
  };
}

/** llama-bench's units: MiB below a GiB, else GiB; parameters in M or B with two decimals. */
function benchSize(bytes: number): string {
  return bytes < 2 ** 30 ? `${(bytes / 2 ** 20).toFixed(2)} MiB` : `${(bytes / 2 ** 30).toFixed(2)} GiB`;
}
function benchParams(n: number | null): string {
  if (n === null) return '?';
  return n < 1e9 ? `${(n / 1e6).toFixed(2)} M` : `${(n / 1e9).toFixed(2)} B`;
}

/**
 * llama-bench's markdown table (`| model | size | params | backend | threads | test | t/s |`, t/s as
 * mean ± sd), under a line naming the engine, the model id and the batch size.
 */
export function renderPpTg(report: PpTgReport): string {
  const header = ['model', 'size', 'params', 'backend', 'threads', 'test', 't/s'];
  const right = [false, true, true, false, true, true, true];
  const rows = report.tests.map((t) => [
    report.model_description,
    benchSize(report.size_bytes),
    benchParams(report.parameters),
    'CPU',
    String(report.threads),
    t.test,
    `${t.mean_tps.toFixed(2)} ± ${t.sd_tps.toFixed(2)}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (right[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
  const rule = `| ${widths.map((w, i) => (right[i] ? `${'-'.repeat(w - 1)}:` : '-'.repeat(w))).join(' | ')} |`;
  const title = `llama-bench style: ${report.model} on ${report.engine}, batch ${report.batch_size}, ${report.tests[0]?.repetitions ?? 0} repetitions after a warm-up`;
  return `${[title, '', line(header), rule, ...rows.map(line)].join('\n')}\n`;
}
