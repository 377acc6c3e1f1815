import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CrucibleError, makeRedactor, type ReasoningMode } from '@crucibleforge/core';
import { renderSpeedReport, speedEventText, speedFailureText } from '@crucibleforge/report';
import { parseCount, runSpeedBenchmark, type SpeedPromptKey } from '@crucibleforge/speed';
import { PROVIDER_KINDS, releaseModel, type ProviderKind, type TimingTimeouts } from '@crucibleforge/timing';
import type { OpenedEngine, PpTgReport } from '@crucibleforge/engine-llamacpp';
import { envSecretFlag, intFlag, listFlag, numberFlag, oneOfFlag, parseCommandArgs, stringFlags } from '../args';
import { ENGINE_USAGE, hardwareFlags, HARDWARE_OPTIONS, openEngine } from '../hardware-flags';
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
  ...stringFlags('base-url', 'api-key-env', 'runs', 'warmup', 'prompts', 'depths', 'concurrency', 'max-tokens', 'provider', 'reasoning', 'out', 'pp', 'tg', 'repetitions'),
  ...stringFlags('connect-timeout', 'first-token-timeout', 'gap-timeout', 'total-timeout'),
  ...HARDWARE_OPTIONS,
  unload: { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

const PROMPT_KEYS: readonly SpeedPromptKey[] = ['short', 'medium', 'long'];
const TIMEOUT_FLAGS: [keyof typeof OPTIONS, keyof TimingTimeouts][] = [
  ['connect-timeout', 'connectMs'],
  ['first-token-timeout', 'firstTokenMs'],
  ['gap-timeout', 'gapMs'],
  ['total-timeout', 'totalMs'],
];

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
    const apiKey = envSecretFlag(io.env, 'api-key-env', keyVar);
    if (apiKey) io = redactingIO(rawIO, [apiKey]);
    const prompts = (listFlag(values.prompts) ?? [...PROMPT_KEYS]).map((p) => oneOfFlag('prompts', p, PROMPT_KEYS, 'short'));
    if (prompts.length === 0) throw new UsageError('--prompts needs at least one of short, medium, long');
    const timeouts: Partial<TimingTimeouts> = {};
    for (const [flag, key] of TIMEOUT_FLAGS) {
      const seconds = numberFlag(flag, values[flag] as string | undefined);
      if (seconds !== undefined) timeouts[key] = seconds * 1000;
    }
    const providerKind = oneOfFlag<ProviderKind>('provider', values.provider, PROVIDER_KINDS, inProcess ? 'llamacpp' : 'generic');
    const reasoning = oneOfFlag<ReasoningMode>('reasoning', values.reasoning, ['auto', 'on', 'off'], 'auto');
    // llama-bench's `-p N -n M -r R`; `--pp 0 --tg 0` skips it
    const ppTg = inProcess
      ? { promptTokens: intFlag('pp', values.pp, 512, 0), generateTokens: intFlag('tg', values.tg, 128, 0), repetitions: intFlag('repetitions', values.repetitions, 5) }
      : null;
    let opened: OpenedEngine | null = null;
    if (inProcess) {
      opened = await openEngine(io, values, named);
      const { engineLine } = await import('@crucibleforge/engine-llamacpp');
      io.stderr.write(`${engineLine(opened.info)}\n`);
    }
    const model = opened?.info.model ?? named!;
    const say = (line: string) => io.stderr.write(`${line}\n`);
    const hardware = await hardwareFlags(values, io, { model, opened, endpoint: opened ? null : { baseUrl: baseUrl!, providerKind, apiKey }, say });

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
        ...hardware,
        timeouts,
        signal: io.signal,
        onEvent: (p) => io.stderr.write(`${inert(speedEventText(p))}\n`),
      });
    } catch (error) {
      if (error instanceof UsageError || !CrucibleError.isInstance(error)) throw error;
      io.stderr.write(`crucibleforge speed: ${speedFailureText(error, keyVar)}`);
      await opened?.engine.close();
      return EXIT.failed;
    }

    // with --json stdout is the report alone; the notes a person reads (and the tables) go to stderr
    const notes = values.json ? io.stderr : io.stdout;
    notes.write(inert(renderSpeedReport(report)));
    let ppTgReport: PpTgReport | null = null;
    try {
      if (opened && ppTg) {
        const { runPpTg, renderPpTg } = await import('@crucibleforge/engine-llamacpp');
        ppTgReport = await runPpTg(opened, ppTg, (line) => io.stderr.write(`${line}\n`));
        if (ppTgReport) notes.write(renderPpTg(ppTgReport));
      }
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
