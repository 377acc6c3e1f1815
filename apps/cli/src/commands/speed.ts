import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CrucibleError, makeRedactor, type ReasoningMode } from '@crucibleforge/core';
import {
  PROVIDER_KINDS,
  parseCount,
  readGgufInfo,
  releaseModel,
  renderSpeedReport,
  runSpeedBenchmark,
  type GgufInfo,
  type PartialTimings,
  type ProviderKind,
  type SpeedProgress,
  type SpeedPromptKey,
  type TimingTimeouts,
} from '@crucibleforge/timing';
import { intFlag, listFlag, parseCommandArgs } from '../args';
import { ENGINE_OPTIONS, ENGINE_USAGE, engineLine, openEngine, ppTgSettings, runPpTg, type OpenedEngine } from '../engine-speed';
import { bandwidthLine, discoverServedGguf, ggufSummary, hostRooflineOptions, isLocalEndpoint } from '../host-roofline';
import { EXIT, UsageError, type CliIO, type CommandModule } from '../io';
import { redactingIO } from '../runner-context';
import { inert } from '../output';

const usage = `Usage: crucibleforge speed <model> --base-url <url> [options]
       crucibleforge speed [<model>] --gguf FILE [options]      (no server: llama.cpp in this process)

Measures one model's speed on an OpenAI-compatible endpoint, or of a GGUF file run in process: TTFT
(any / reasoning / content), decode and prefill tokens/s, E2E, event gaps; optional depth and
concurrency sweeps; a roofline plausibility check (with no GPU named, against this host's measured
memory bandwidth for a local or in-process model). In process it also measures llama-bench's pp/tg.
Prints a table; --json prints the full report instead, --out FILE writes it.

Options:
  --base-url URL            endpoint base URL including /v1 (required unless --gguf runs the model in process)
  --api-key-env VAR         read the API key from environment variable VAR (never printed)
  --runs N                  measured rounds per prompt (default 3)
  --warmup N                warm-up rounds per prompt, not measured (default 1; 0 allowed)
  --prompts LIST            any of short,medium,long (default all three)
  --depths LIST             context-depth sweep in prompt tokens, e.g. 1k,4k,16k
  --concurrency LIST        concurrency sweep in streams, e.g. 1,2,4,8
  --max-tokens N            output cap per request (default 256)
  --provider KIND           ${PROVIDER_KINDS.join('|')} (default generic)
  --reasoning MODE          auto|on|off: the provider's thinking switch (default auto)
  --gpu NAME                GPU/APU for the roofline, e.g. "RX 7900 XTX", "RTX 4090", "M2 Max"
  --bandwidth-gbs N         advertised memory bandwidth in GB/s (overrides --gpu)
  --gguf PATH               the model's GGUF file: exact active weights per token; without --base-url the
                            model runs in this process (found by itself for LM Studio, Ollama, llama.cpp)
${ENGINE_USAGE}
  --pp N / --tg M           in process: llama-bench's prompt processing of N tokens and generation of M
                            (default 512 / 128; 0 skips)
  --repetitions R           in process: pp/tg repetitions, reported as mean ± sd (default 5)
  --refresh-bandwidth       measure the host's memory bandwidth again (else the cached probe is used)
  --connect-timeout S       seconds until response headers (default 30)
  --first-token-timeout S   seconds until the first token (default 300)
  --gap-timeout S           longest silence between tokens, seconds (default 120)
  --total-timeout S         whole request, seconds (default 1800)
  --unload                  afterwards ask the server to unload the model (LM Studio, Ollama)
  --json                    print the report as JSON on stdout (instead of the table)
  --out FILE                write the report as JSON to FILE

Exit codes: 0 measured, 1 measurement failed (or wrong model served), 2 usage error.
`;

const OPTIONS = {
  'base-url': { type: 'string' },
  'api-key-env': { type: 'string' },
  runs: { type: 'string' },
  warmup: { type: 'string' },
  prompts: { type: 'string' },
  depths: { type: 'string' },
  concurrency: { type: 'string' },
  'max-tokens': { type: 'string' },
  provider: { type: 'string' },
  reasoning: { type: 'string' },
  gpu: { type: 'string' },
  'bandwidth-gbs': { type: 'string' },
  gguf: { type: 'string' },
  'connect-timeout': { type: 'string' },
  'first-token-timeout': { type: 'string' },
  'gap-timeout': { type: 'string' },
  'total-timeout': { type: 'string' },
  unload: { type: 'boolean' },
  json: { type: 'boolean' },
  out: { type: 'string' },
  ...ENGINE_OPTIONS,
  pp: { type: 'string' },
  tg: { type: 'string' },
  repetitions: { type: 'string' },
  'refresh-bandwidth': { type: 'boolean' },
} as const;

const PROMPT_KEYS: readonly SpeedPromptKey[] = ['short', 'medium', 'long'];
const TIMEOUT_FLAGS: [keyof typeof OPTIONS, keyof TimingTimeouts][] = [
  ['connect-timeout', 'connectMs'],
  ['first-token-timeout', 'firstTokenMs'],
  ['gap-timeout', 'gapMs'],
  ['total-timeout', 'totalMs'],
];

function positiveNumber(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${flag} must be a positive number, got "${value}"`);
  return n;
}

function counts(flag: string, value: string | undefined): number[] | undefined {
  const items = listFlag(value);
  if (items === undefined) return undefined;
  if (items.length === 0) throw new UsageError(`--${flag} needs at least one value`);
  return items.map((item) => {
    const n = parseCount(item);
    if (n === null) throw new UsageError(`--${flag}: "${item}" is not a positive whole number (1k = 1024 allowed)`);
    return n;
  });
}

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}, got "${value}"`);
  return value as T;
}

function describePartial(partial: PartialTimings | undefined): string | null {
  if (!partial) return null;
  const s = (label: string, v: number | null) => (v === null ? null : `${label} ${v.toFixed(3)} s`);
  const parts = [
    s('headers', partial.headers_s),
    s('TTFB', partial.ttfb_s),
    s('TTFT', partial.ttft_s),
    s('last token', partial.last_token_s),
    `${partial.token_events} token events`,
    `${partial.content_chars + partial.reasoning_chars} characters`,
    s('elapsed', partial.elapsed_s),
  ].filter((p): p is string => p !== null);
  return `partial timings: ${parts.join(', ')}`;
}

function progressLine(p: SpeedProgress): string {
  const r = p.run;
  const what = `${p.phase === 'warmup' ? 'warm-up ' : ''}${p.label} #${r.index + 1}`;
  if (!r.ok) return `  ${what}: ${r.error.code}: ${inert(r.error.message)}\n`;
  const tps = r.decode_tps === null ? '—' : r.decode_tps.toFixed(1);
  return `  ${what}: TTFT ${r.ttft_s?.toFixed(3) ?? '—'} s, decode ${tps} T/s, ${r.completion_tokens ?? '?'} tokens\n`;
}

export const command: CommandModule = {
  usage,
  async run(args: string[], rawIO: CliIO): Promise<number> {
    let io = rawIO;
    const { values, positionals } = parseCommandArgs(args, OPTIONS);
    const baseUrl = values['base-url'];
    const inProcess = values.gguf !== undefined && baseUrl === undefined;
    const named = positionals[0];
    if (!named && !inProcess) throw new UsageError('name the model to measure: crucibleforge speed <model> --base-url <url> (or --gguf FILE to run it in process)');
    if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`);
    if (!inProcess && !baseUrl) throw new UsageError('--base-url is required (e.g. http://127.0.0.1:1234/v1), or --gguf FILE to run the model in this process');
    if (baseUrl !== undefined && !/^https?:\/\/[^/]/.test(baseUrl)) throw new UsageError(`--base-url must be an http(s) URL, got "${baseUrl}"`);
    if (!inProcess && (values.threads || values['ctx-size'] || values['batch-size'] || values.pp || values.tg || values.repetitions)) {
      throw new UsageError('--threads, --ctx-size, --batch-size, --pp, --tg and --repetitions are for a model run in process (--gguf FILE without --base-url)');
    }
    const keyVar = values['api-key-env'];
    let apiKey: string | undefined;
    if (keyVar !== undefined) {
      apiKey = io.env[keyVar];
      if (!apiKey) throw new UsageError(`--api-key-env ${keyVar}: the environment variable ${keyVar} is not set`);
      io = redactingIO(rawIO, [apiKey]); // never let the key reach the terminal, even when a server echoes it
    }
    const prompts = (listFlag(values.prompts) ?? [...PROMPT_KEYS]).map((p) => oneOf('prompts', p, PROMPT_KEYS, 'short'));
    if (prompts.length === 0) throw new UsageError('--prompts needs at least one of short, medium, long');
    const timeouts: Partial<TimingTimeouts> = {};
    for (const [flag, key] of TIMEOUT_FLAGS) {
      const seconds = positiveNumber(flag, values[flag] as string | undefined);
      if (seconds !== undefined) timeouts[key] = seconds * 1000;
    }
    const providerKind = oneOf<ProviderKind>('provider', values.provider, PROVIDER_KINDS, inProcess ? 'llamacpp' : 'generic');
    const reasoning = oneOf<ReasoningMode>('reasoning', values.reasoning, ['auto', 'on', 'off'], 'auto');
    const bandwidthGbs = positiveNumber('bandwidth-gbs', values['bandwidth-gbs']) ?? null;
    const ppTg = inProcess ? ppTgSettings(values) : null;
    let opened: OpenedEngine | null = null;
    let gguf: GgufInfo | null = null;
    if (inProcess) {
      opened = await openEngine(io, values.gguf!, values, named);
      gguf = opened.gguf;
      io.stderr.write(`${engineLine(opened.info)}\n`);
    } else if (values.gguf) {
      try {
        gguf = await readGgufInfo(resolve(io.cwd, values.gguf));
      } catch (error) {
        throw new UsageError(`--gguf: ${(error as Error).message}`);
      }
    } else {
      const found = await discoverServedGguf(io, named!, { baseUrl: baseUrl!, providerKind, apiKey });
      if (found) io.stderr.write(inert(`found the model's GGUF: ${found.location.path} (${found.location.detail}): ${ggufSummary(found.info)}\n`));
      gguf = found?.info ?? null;
    }
    // No GPU named: a model on this machine (in process, or a loopback server) is held to this host's
    // bandwidth, probed (or read from the cache) only when the roofline needs it.
    const local = !values.gpu && bandwidthGbs === null && (inProcess || isLocalEndpoint(baseUrl!));
    const roofline = local
      ? await hostRooflineOptions(io, { refresh: values['refresh-bandwidth'] === true, onReading: (r) => io.stderr.write(`${bandwidthLine(r)}\n`) })
      : {};
    const model = opened?.info.model ?? named!;

    let report;
    try {
      report = await runSpeedBenchmark({
        ...(opened ? { completer: opened.engine, endpointLabel: `in-process:${opened.info.gguf}`, metadata: false } : { baseUrl: baseUrl! }),
        model,
        ...(apiKey ? { apiKey } : {}),
        providerKind,
        reasoning,
        runs: intFlag('runs', values.runs, 3),
        warmup: intFlag('warmup', values.warmup, 1, 0),
        maxTokens: intFlag('max-tokens', values['max-tokens'], 256),
        prompts,
        ...(values.depths ? { depths: counts('depths', values.depths)! } : {}),
        ...(values.concurrency ? { concurrency: counts('concurrency', values.concurrency)! } : {}),
        bandwidthGbs: positiveNumber('bandwidth-gbs', values['bandwidth-gbs']) ?? null,
        gpu: values.gpu ?? null,
        ...roofline,
        gguf,
        timeouts,
        signal: io.signal,
        onProgress: (p) => io.stderr.write(progressLine(p)),
      });
    } catch (error) {
      if (error instanceof UsageError || !CrucibleError.isInstance(error)) throw error;
      let message = error.message;
      if (error.code === 'TIMING_AUTH') {
        message = keyVar ? `key rejected, set ${keyVar} to a valid key (${error.message})` : `key rejected: the endpoint needs a key; put it in an environment variable and pass --api-key-env VAR (${error.message})`;
      }
      io.stderr.write(`crucibleforge speed: ${error.code}: ${inert(message)}\n`);
      const partial = describePartial(error.details.partial as PartialTimings | undefined);
      if (partial && /TIMEOUT|STREAM/.test(error.code)) io.stderr.write(`  ${partial}\n`);
      await opened?.engine.close();
      return EXIT.failed;
    }

    // with --json stdout is the report alone; the notes a person reads (and the tables) go to stderr
    const notes = values.json ? io.stderr : io.stdout;
    notes.write(inert(renderSpeedReport(report)));
    let ppTgReport = null;
    try {
      if (opened && ppTg) ppTgReport = await runPpTg(opened, ppTg, { ...io, stdout: notes });
    } finally {
      await opened?.engine.close();
    }
    const full = opened ? { ...report, engine: opened.info, pp_tg: ppTgReport } : report;
    const json = makeRedactor([apiKey])(`${JSON.stringify(full, null, 2)}\n`);
    if (values.json) io.stdout.write(json);
    if (values.out) {
      const file = resolve(io.cwd, values.out);
      await writeFile(file, json);
      notes.write(`report written to ${file}\n`);
    }
    if (values.unload && baseUrl) {
      const released = await releaseModel(baseUrl, model, { providerKind, ...(apiKey ? { apiKey } : {}) });
      notes.write(`unload: ${inert(released.detail)}\n`);
    }
    return report.ok ? EXIT.ok : EXIT.failed;
  },
};
