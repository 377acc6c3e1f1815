import { basename, dirname, join, resolve } from 'node:path';
import { CrucibleError, makeRedactor, redactDeep } from '@crucibleforge/core';
import { benchHeader, benchResults, benchSpeedSection, paintFor, resultsPath, shortPath, type BenchResults, type Paint } from '@crucibleforge/report';
import { benchRun, endpointConfig, type RunRow } from '@crucibleforge/runner';
import { sandboxError } from '@crucibleforge/sandbox';
import { openSandbox } from '../sandbox-open';
import { runSpeedBenchmark, type SpeedReport, type SpeedSettings } from '@crucibleforge/speed';
import { PROVIDER_KINDS, probeEndpoint, type ModelInfo, type ProviderKind } from '@crucibleforge/timing';
import { envSecretFlag, oneOfFlag, parseCommandArgs, stringFlags } from '../args';
import { ENGINE_USAGE, engineOptions, hardwareFlags, HARDWARE_OPTIONS, openEngine } from '../hardware-flags';
import { benchConfig, checkSetup, listModels, type EndpointOptions } from '../bench-llm-endpoint';
import { writeJsonFile } from '../bench-llm-results';
import type { OpenedEngine } from '@crucibleforge/engine-llamacpp';
import { EXIT, UsageError, type CliIO, type CommandModule } from '../io';
import { VERSION } from '../main';
import { CASES_DIR_DEFAULT, casesDirOf } from '../cases-dir';
import { leaseCacheOption, redactingIO, withJsonOutput } from '../runner-context';

export const DEFAULT_BASE_URL = 'http://localhost:1234/v1';
/** The classic suite is the `quick` profile of the case set, materialised with this seed. */
const PROFILE = 'quick';
const SEED = 1;

const usage = `Usage: bench-llm <model> [options]          (also: crucibleforge bench-llm …)
       bench-llm [<model>] --gguf FILE [options]     (no server: llama.cpp in this process)
       bench-llm --list | --check [<model>]

The five-minute first read of a model: speed (short_50 / medium_200 / long_800 prompts, warm-up,
plausibility), five ability tests (code run in the sandbox, a logic puzzle, JSON, instruction following,
a key-fact summary) and three agent-fitness checks, run through the runner like any run (preflight,
reasoning-overflow recovery, one row per test). Results go to ~/benchmarks/<model>-<date>.json; the run
itself to runs/ next to that file (crucibleforge report --results <that folder> reads it).

Options:
  --base-url URL        OpenAI-compatible endpoint (default ${DEFAULT_BASE_URL}, LM Studio)
  --api-key-env VAR     read the API key from this environment variable (LM Studio needs none)
  --kind K              server kind for the reasoning switch: ${PROVIDER_KINDS.join(', ')}
                        (default lmstudio for the default URL, else generic)
  --quick               a smoke run: one speed prompt, fewer rounds, then the tests
  --speed-only          speed only; no model-written code is run
  --allow-unsandboxed   run the code test without bubblewrap when it is unavailable
  --gguf FILE           the model's GGUF file: size, quantisation and exact weights for the roofline;
                        without --base-url the model runs in this process (no server). With a local
                        server the file is found by itself (LM Studio, Ollama, llama.cpp /props)
${ENGINE_USAGE}
  --gpu NAME            the GPU/APU serving it, for the plausibility roofline (e.g. "RX 7900 XTX")
  --bandwidth-gbs N     its memory bandwidth in GB/s (instead of --gpu)
  --out DIR|FILE.json   write <model>-<date>.json into DIR instead of ~/benchmarks (or exactly FILE.json)
  --json                also print the results as JSON on stdout (the report lines go to stderr)
  --cases DIR           the case set (default: ${CASES_DIR_DEFAULT})
  --list                list the endpoint's models with size, quantisation, parameters, architecture and
                        experts (from the server, or from the GGUF found on disk for a local server)
  --check               check the endpoint (models listed, a streamed completion) and the sandbox

Exit codes: 0 done (whatever the scores), 1 the endpoint failed, 2 usage, 3 the code test was skipped
for lack of a sandbox.
`;

const options = {
  ...stringFlags('base-url', 'api-key-env', 'kind', 'out', 'cases'),
  json: { type: 'boolean', default: false },
  quick: { type: 'boolean', default: false },
  'speed-only': { type: 'boolean', default: false },
  'allow-unsandboxed': { type: 'boolean', default: false },
  list: { type: 'boolean', default: false },
  check: { type: 'boolean', default: false },
  ...HARDWARE_OPTIONS,
} as const;

type Values = ReturnType<typeof parseCommandArgs<typeof options>>['values'];

function endpointOptions(values: { 'base-url'?: string | undefined; 'api-key-env'?: string | undefined; kind?: string | undefined }, model: string | undefined, io: CliIO): EndpointOptions {
  const baseUrl = (values['base-url'] ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/.test(baseUrl)) throw new UsageError(`--base-url must be an http(s) URL such as ${DEFAULT_BASE_URL}, got "${baseUrl}"`);
  const apiKeyEnv = values['api-key-env'];
  const apiKey = envSecretFlag(io.env, 'api-key-env', apiKeyEnv);
  const providerKind = oneOfFlag<ProviderKind>('kind', values.kind, PROVIDER_KINDS, baseUrl === DEFAULT_BASE_URL ? 'lmstudio' : 'generic');
  const bwrap = io.env['CRUCIBLEFORGE_BWRAP'];
  return { baseUrl, apiKey, apiKeyEnv, providerKind, model, bwrapPath: bwrap || undefined };
}

interface Measured {
  speed: SpeedReport | null;
  rows: RunRow[];
  run: BenchResults['run'];
  casesDir: string | null;
  sandboxed: boolean | null;
  code: number;
}

/** --speed-only: the speed benchmark alone (no case is run, no model-written code). */
/** Where the model is: an endpoint, or a GGUF in this process. */
type Target = { o: EndpointOptions; local: null } | { o: null; local: InProcess };

async function speedOnly(t: Target, model: string, settings: SpeedSettings, io: CliIO, paint: Paint): Promise<Measured> {
  const opened = t.local?.opened;
  const via = opened
    ? { completer: opened.engine, endpointLabel: `in-process:${opened.info.gguf}`, metadata: false, providerKind: 'llamacpp' as const }
    : { baseUrl: t.o!.baseUrl, providerKind: t.o!.providerKind, ...(t.o!.apiKey ? { apiKey: t.o!.apiKey } : {}) };
  try {
    const speed = await runSpeedBenchmark({ ...settings, ...via, model, signal: io.signal });
    io.stdout.write(`${benchSpeedSection(speed, paint).join('\n')}\n`);
    return { speed, rows: [], run: null, casesDir: null, sandboxed: null, code: EXIT.ok };
  } catch (error) {
    if (!CrucibleError.isInstance(error)) throw error;
    io.stderr.write(`bench-llm: speed benchmark failed: ${error.message}\n`);
    return { speed: null, rows: [], run: null, casesDir: null, sandboxed: null, code: EXIT.failed };
  }
}

/** The suite through the runner (its benchRun): preflight, the speed measurement, then the tests one at a time, stored as a run. */
async function suite(t: Target, model: string, settings: SpeedSettings, values: Values, io: CliIO, paint: Paint, runsDir: string): Promise<Measured> {
  const casesDir = casesDirOf(io, values.cases);
  // no sandbox: the runner skips the code test (nothing sent) and says why in its row
  const sandbox = await openSandbox(io, { who: 'bench-llm', allowUnsandboxed: values['allow-unsandboxed'], quiet: !values['allow-unsandboxed'] });
  const noSandbox = () => Promise.reject(sandboxError('SANDBOX_UNAVAILABLE', 'install bubblewrap, or --allow-unsandboxed'));
  const e = engineOptions(values);
  const engine = { ...(e.threads ? { threads: e.threads } : {}), ...(e.contextSize ? { context: e.contextSize } : {}), ...(e.batchSize ? { batch: e.batchSize } : {}) };
  const { config, label } = t.local ? endpointConfig({ gguf: t.local.gguf, engine, model }) : benchConfig(t.o, model);
  const bench = await benchRun({
    config,
    label,
    env: io.env,
    profile: PROFILE,
    seed: SEED,
    resultsDir: runsDir,
    casesDir,
    toolVersion: VERSION,
    speed: settings,
    world: { sandbox: sandbox ?? noSandbox, secrets: t.o?.apiKey ? [t.o.apiKey] : [] },
    signal: io.signal,
    ...leaseCacheOption(io.env),
    paint,
    say: (lines) => io.stdout.write(`${lines.join('\n')}\n`),
    warn: (line) => io.stderr.write(`bench-llm: ${line}\n`),
  });
  const { rows } = bench;
  const skippedCode = rows.some((r) => r.grade.status === 'skipped' && /no sandbox/.test(r.grade.reason));
  const code = bench.stopped || rows.some((r) => r.grade.status === 'error') ? EXIT.failed : skippedCode ? EXIT.noSandbox : EXIT.ok;
  return { speed: bench.speed, rows, run: bench.run, casesDir, sandboxed: sandbox?.sandboxed ?? null, code };
}

/** bench-llm on a GGUF in process (`--gguf` without `--base-url`): the runner's in-process provider, or the opened engine for --speed-only. */
interface InProcess {
  gguf: string;
  opened: OpenedEngine | null;
}

async function benchmark(named: string | undefined, values: Values, io: CliIO, emit: (value: unknown) => void): Promise<number> {
  if (values.gguf === undefined || values['base-url'] !== undefined) return benchmarkWith(named!, values, io, null, emit);
  const gguf = resolve(io.cwd, values.gguf);
  // --speed-only measures the engine here; the suite runs through the runner's in-process provider (it loads the engine)
  const opened = values['speed-only'] ? await openEngine(io, values, named) : null;
  try {
    return await benchmarkWith(opened?.info.model ?? named ?? basename(gguf).replace(/\.gguf$/i, ''), values, io, { gguf, opened }, emit);
  } finally {
    await opened?.engine.close();
  }
}

async function benchmarkWith(model: string, values: Values, io: CliIO, local: InProcess | null, emit: (value: unknown) => void): Promise<number> {
  const o = local ? null : endpointOptions(values, model, io);
  const endpoint = o ? { baseUrl: o.baseUrl, providerKind: o.providerKind, apiKey: o.apiKey } : null;
  const hw = await hardwareFlags(values, io, { model, opened: local?.opened ?? null, endpoint });
  const paint = paintFor(io.stdout.isTTY, io.env);
  const started = new Date();
  const metadata = o ? (await probeEndpoint(o.baseUrl, { ...(o.apiKey ? { apiKey: o.apiKey } : {}), model })).metadata : null;
  const info: ModelInfo | null = metadata?.models.find((m) => m.id === model) ?? null;
  io.stdout.write(`${benchHeader(model, hw.gguf?.file_size_bytes ?? info?.size_bytes ?? null, hw.gguf?.quantization ?? info?.quantization ?? null).join('\n')}\n`);
  const settings: SpeedSettings = { ...(values.quick ? { prompts: ['short'], runs: 2, warmup: 1 } : { runs: 3, warmup: 1 }), ...hw };
  if (local?.opened) {
    const { engineLine } = await import('@crucibleforge/engine-llamacpp');
    io.stdout.write(`  ${engineLine(local.opened.info)}\n\n`);
  }
  const path = resultsPath({ out: values.out, cwd: io.cwd, home: io.env['HOME'], model, date: started });
  const target: Target = local ? { o: null, local } : { o: o!, local: null };
  const measured = values['speed-only'] ? await speedOnly(target, model, settings, io, paint) : await suite(target, model, settings, values, io, paint, join(dirname(path), 'runs'));
  const results = benchResults({
    tool_version: VERSION,
    model,
    base_url: measured.speed?.base_url ?? o?.baseUrl ?? `in-process:${local!.gguf}`,
    started_at: started.toISOString(),
    finished_at: new Date().toISOString(),
    settings: { quick: values.quick, speed_only: values['speed-only'], cases_dir: measured.casesDir, profile: PROFILE, seed: SEED, sandboxed: measured.sandboxed },
    run: measured.run,
    speed: measured.speed,
    rows: measured.rows,
  });
  const saved = redactDeep(results, makeRedactor([o?.apiKey]));
  await writeJsonFile(path, saved);
  io.stdout.write(`  📄 Results saved: ${shortPath(path, io.env['HOME'])}\n\n`);
  emit(saved);
  return measured.code;
}

export const command: CommandModule = {
  usage,
  async run(args, rawIO) {
    const { values, positionals } = parseCommandArgs(args, options);
    // An endpoint may echo the key in an error: it never reaches the terminal (nor the results JSON).
    const keyVar = values['api-key-env'];
    const io = redactingIO(rawIO, [keyVar ? rawIO.env[keyVar] : undefined]);
    if (positionals.length > 1) throw new UsageError(`expected one model, got ${positionals.length}: ${positionals.join(' ')}`);
    const model = positionals[0];
    if (values.list && values.check) throw new UsageError('give --list or --check, not both');
    if (values.list) return listModels(endpointOptions(values, model, io), io);
    if (values.check) return checkSetup(endpointOptions(values, model, io), io, paintFor(io.stdout.isTTY, io.env));
    const inProcess = values.gguf !== undefined && values['base-url'] === undefined;
    if (!model && !inProcess) throw new UsageError('name the model to benchmark (bench-llm --list shows what the endpoint has), or run a GGUF in process with --gguf FILE');
    if (!inProcess && (values.threads || values['ctx-size'] || values['batch-size'])) {
      throw new UsageError('--threads, --ctx-size and --batch-size are for a model run in process (--gguf FILE without --base-url)');
    }
    return withJsonOutput(io, 'bench-llm', values.json, (io, emit) => benchmark(model, values, io, emit));
  },
};
