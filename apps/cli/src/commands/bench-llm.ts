import { resolve } from 'node:path';
import { CrucibleError, makeRedactor, redactDeep } from '@crucibleforge/core';
import type { MaterializedCase } from '@crucibleforge/cases';
import { createSandbox, type Sandbox } from '@crucibleforge/sandbox';
import {
  createTimedCompleter,
  listModelMetadata,
  PROVIDER_KINDS,
  readGgufInfo,
  runSpeedBenchmark,
  type GgufInfo,
  type ModelInfo,
  type ProviderKind,
  type SpeedReport,
} from '@crucibleforge/timing';
import { parseCommandArgs } from '../args';
import { ENGINE_OPTIONS, ENGINE_USAGE, engineLine, openEngine, type OpenedEngine } from '../engine-speed';
import { discoverServedGguf, hostRooflineOptions, isLocalEndpoint } from '../host-roofline';
import { runTests, type TestResult } from '../bench-llm-ability';
import { checkSetup, listModels, type EndpointOptions } from '../bench-llm-endpoint';
import { ABILITY_TITLE, abilityScoreLine, AGENT_TITLE, agentScoreLine, dotWidth, header, paintFor, speedSection, testLines } from '../bench-llm-render';
import { buildResults, resultsPath, shortPath, writeResults } from '../bench-llm-results';
import { profileCases } from '../bench-llm-suite';
import { EXIT, UsageError, type CliIO, type CommandModule } from '../io';
import { VERSION } from '../main';
import { CASES_DIR_DEFAULT, casesDirOf } from '../cases-dir';
import { redactingIO, withRunnerErrors } from '../runner-context';
import { jsonMode } from '../output';

export const DEFAULT_BASE_URL = 'http://localhost:1234/v1';
/** The classic suite is the `quick` profile of the case set, materialised with this seed. */
const PROFILE = 'quick';
const SEED = 1;

const usage = `Usage: bench-llm <model> [options]          (also: crucibleforge bench-llm …)
       bench-llm [<model>] --gguf FILE [options]     (no server: llama.cpp in this process)
       bench-llm --list | --check [<model>]

The five-minute first read of a model: speed (short_50 / medium_200 / long_800 prompts, warm-up,
plausibility), five ability tests (code run in the sandbox, a logic puzzle, JSON, instruction following,
a key-fact summary) and three agent-fitness checks. Results go to ~/benchmarks/<model>-<date>.json.

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
  'base-url': { type: 'string' },
  'api-key-env': { type: 'string' },
  kind: { type: 'string' },
  quick: { type: 'boolean', default: false },
  'speed-only': { type: 'boolean', default: false },
  'allow-unsandboxed': { type: 'boolean', default: false },
  out: { type: 'string' },
  json: { type: 'boolean', default: false },
  cases: { type: 'string' },
  list: { type: 'boolean', default: false },
  check: { type: 'boolean', default: false },
  gguf: { type: 'string' },
  gpu: { type: 'string' },
  'bandwidth-gbs': { type: 'string' },
  ...ENGINE_OPTIONS,
} as const;

type Values = ReturnType<typeof parseCommandArgs<typeof options>>['values'];

interface Hardware {
  gguf: GgufInfo | null;
  gpu: string | null;
  bandwidthGbs: number | null;
  /** This host's roofline (the bandwidth probed when needed, the CPU cache), for a model on this machine when no GPU is named. */
  roofline: Awaited<ReturnType<typeof hostRooflineOptions>> | null;
}

/**
 * --gguf, --gpu and --bandwidth-gbs: what the plausibility roofline knows about the hardware and weights;
 * without --gguf the served model's file is looked for on disk, and a model on this machine with no GPU
 * named is held to the host's measured bandwidth.
 */
async function hardware(values: Values, io: CliIO, model: string, o: EndpointOptions | null, opened: OpenedEngine | null): Promise<Hardware> {
  const base = await flaggedHardware(values, io.cwd, opened);
  if (!base.gguf && o) {
    const found = await discoverServedGguf(io, model, { baseUrl: o.baseUrl, providerKind: o.providerKind, apiKey: o.apiKey });
    base.gguf = found?.info ?? null;
  }
  const local = !base.gpu && base.bandwidthGbs === null && (opened !== null || (o !== null && isLocalEndpoint(o.baseUrl)));
  // The plausibility reasons name the measured bandwidth.
  return { ...base, roofline: local ? await hostRooflineOptions(io) : null };
}

async function flaggedHardware(values: Values, cwd: string, opened: OpenedEngine | null): Promise<Omit<Hardware, 'roofline'>> {
  let bandwidthGbs: number | null = null;
  if (values['bandwidth-gbs'] !== undefined) {
    bandwidthGbs = Number(values['bandwidth-gbs']);
    if (!Number.isFinite(bandwidthGbs) || bandwidthGbs <= 0) throw new UsageError(`--bandwidth-gbs must be a positive number, got "${values['bandwidth-gbs']}"`);
  }
  let gguf: GgufInfo | null = opened?.gguf ?? null;
  if (values.gguf !== undefined && !opened) {
    try {
      gguf = await readGgufInfo(resolve(cwd, values.gguf));
    } catch (error) {
      throw new UsageError(`--gguf: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { gguf, gpu: values.gpu ?? null, bandwidthGbs };
}

function endpointOptions(values: { 'base-url'?: string | undefined; 'api-key-env'?: string | undefined; kind?: string | undefined }, model: string | undefined, io: CliIO): EndpointOptions {
  const baseUrl = (values['base-url'] ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/.test(baseUrl)) throw new UsageError(`--base-url must be an http(s) URL such as ${DEFAULT_BASE_URL}, got "${baseUrl}"`);
  let apiKey: string | undefined;
  if (values['api-key-env'] !== undefined) {
    apiKey = io.env[values['api-key-env']];
    if (!apiKey) throw new UsageError(`--api-key-env ${values['api-key-env']}: that environment variable is not set`);
  }
  const kind = values.kind ?? (baseUrl === DEFAULT_BASE_URL ? 'lmstudio' : 'generic');
  if (!(PROVIDER_KINDS as readonly string[]).includes(kind)) throw new UsageError(`--kind must be one of ${PROVIDER_KINDS.join(', ')}, got "${kind}"`);
  const bwrap = io.env['CRUCIBLEFORGE_BWRAP'];
  return { baseUrl, apiKey, providerKind: kind as ProviderKind, model, bwrapPath: bwrap || undefined };
}

/** The seed's order of the ability tests: code, logic, JSON, instructions, summary (others after, by id). */
const SEED_ORDER = ['coding', 'reasoning', 'json', 'instruct', 'prose'];

function seedRank(c: MaterializedCase): number {
  const key = c.category === 'instruct' && c.grader.type === 'json' ? 'json' : c.category;
  const rank = SEED_ORDER.indexOf(key);
  return rank === -1 ? SEED_ORDER.length : rank;
}

/** The classic suite: the quick profile's cases, materialised; ability tests first (in the seed's order), agent tests apart. */
async function loadSuite(casesDir: string, sandbox: Sandbox | null): Promise<{ ability: MaterializedCase[]; agent: MaterializedCase[] }> {
  const cases = await profileCases(casesDir, PROFILE, SEED, sandbox);
  const ability = cases.filter((c) => c.category !== 'agent').sort((a, b) => seedRank(a) - seedRank(b) || a.id.localeCompare(b.id));
  return { ability, agent: cases.filter((c) => c.category === 'agent') };
}

/** The sandbox for the code test, or why there is none. */
async function openSandbox(allowUnsandboxed: boolean, bwrapPath: string | undefined): Promise<{ sandbox: Sandbox | null; reason: string }> {
  try {
    return { sandbox: await createSandbox({ allowUnsandboxed, ...(bwrapPath ? { bwrapPath } : {}) }), reason: '' };
  } catch (error) {
    if (CrucibleError.isInstance(error) && error.code === 'SANDBOX_UNAVAILABLE') {
      return { sandbox: null, reason: 'not run: no sandbox (install bubblewrap, or --allow-unsandboxed)' };
    }
    throw error;
  }
}

async function benchmark(named: string | undefined, values: Values, io: CliIO, emit: (value: unknown) => void): Promise<number> {
  const inProcess = values.gguf !== undefined && values['base-url'] === undefined;
  let opened: OpenedEngine | null = null;
  if (inProcess) {
    opened = await openEngine(io, values.gguf!, values, named);
  }
  try {
    return await benchmarkWith(opened?.info.model ?? named!, values, io, opened, emit);
  } finally {
    await opened?.engine.close();
  }
}

async function benchmarkWith(model: string, values: Values, io: CliIO, opened: OpenedEngine | null, emit: (value: unknown) => void): Promise<number> {
  const o = opened ? null : endpointOptions(values, model, io);
  const hw = await hardware(values, io, model, o, opened);
  const paint = paintFor(io.stdout.isTTY, io.env);
  const say = (lines: string[]) => io.stdout.write(`${lines.join('\n')}\n`);
  const started = new Date();
  const meta = o ? await listModelMetadata(o.baseUrl, { ...(o.apiKey ? { apiKey: o.apiKey } : {}), model }).catch(() => null) : null;
  const info: ModelInfo | null = meta?.models.find((m) => m.id === model) ?? null;
  say(header(model, hw.gguf?.file_size_bytes ?? info?.size_bytes ?? null, hw.gguf?.quantization ?? info?.quantization ?? null));
  if (opened) say([`  ${engineLine(opened.info)}`, '']);

  let speed: SpeedReport;
  try {
    speed = await runSpeedBenchmark({
      ...(o ? { baseUrl: o.baseUrl, providerKind: o.providerKind, ...(o.apiKey ? { apiKey: o.apiKey } : {}) } : {}),
      ...(opened ? { completer: opened.engine, endpointLabel: `in-process:${opened.info.gguf}`, metadata: false, providerKind: 'llamacpp' as const } : {}),
      model,
      ...(values.quick ? { prompts: ['short'], runs: 2, warmup: 1 } : { runs: 3, warmup: 1 }),
      gguf: hw.gguf,
      gpu: hw.gpu,
      bandwidthGbs: hw.bandwidthGbs,
      ...hw.roofline,
      signal: io.signal,
    });
  } catch (error) {
    if (!CrucibleError.isInstance(error)) throw error;
    io.stderr.write(`bench-llm: speed benchmark failed: ${error.message}\n`);
    return EXIT.failed;
  }
  say(speedSection(speed, paint));

  const ability: TestResult[] = [];
  const agent: TestResult[] = [];
  let sandboxed: boolean | null = null;
  let endpointFailed = false;
  let noSandbox = false;
  const casesDir = values['speed-only'] ? null : casesDirOf(io, values.cases);
  if (casesDir) {
    const bwrapPath = io.env['CRUCIBLEFORGE_BWRAP'] || undefined;
    const { sandbox, reason } = await openSandbox(values['allow-unsandboxed'], bwrapPath);
    sandboxed = sandbox?.sandboxed ?? null;
    if (sandbox && !sandbox.sandboxed) io.stderr.write('bench-llm: WARNING: bwrap is unavailable; the code test runs WITHOUT a sandbox (--allow-unsandboxed)\n');
    const suite = await loadSuite(casesDir, sandbox);
    const completer = opened
      ? opened.engine
      : createTimedCompleter({ baseUrl: o!.baseUrl, model, providerKind: o!.providerKind, ...(o!.apiKey ? { apiKey: o!.apiKey } : {}), signal: io.signal });
    const run = { completer, sandbox, noSandboxReason: reason, signal: io.signal };
    try {
      const width = dotWidth(suite.ability.map((c) => c.title));
      say([`  ${paint.bold(ABILITY_TITLE)}`]);
      ability.push(...(await runTests(suite.ability, { ...run, onResult: (r) => say(testLines(r, width, paint)) })));
      say([abilityScoreLine(ability), '']);
      const agentWidth = dotWidth(suite.agent.flatMap((c) => (c.grader.type === 'agent' ? c.grader.parts.map((p) => p.name) : [c.title])));
      say([`  ${paint.bold(AGENT_TITLE)}`]);
      agent.push(...(await runTests(suite.agent, { ...run, onResult: (r) => say(testLines(r, agentWidth, paint)) })));
      say([agentScoreLine(agent), '']);
    } catch (error) {
      if (!CrucibleError.isInstance(error)) throw error;
      io.stderr.write(`bench-llm: the endpoint failed during the tests: ${error.message}\n`);
      endpointFailed = true;
    }
    noSandbox = sandbox === null && [...ability, ...agent].some((t) => t.status === 'skipped');
    endpointFailed ||= [...ability, ...agent].some((t) => t.status === 'error');
  }

  const path = resultsPath({ out: values.out, cwd: io.cwd, home: io.env['HOME'], model, date: started });
  const results = buildResults({
    tool_version: VERSION,
    model,
    base_url: speed.base_url,
    started_at: started.toISOString(),
    finished_at: new Date().toISOString(),
    settings: { quick: values.quick, speed_only: values['speed-only'], cases_dir: casesDir, profile: PROFILE, seed: SEED, sandboxed },
    endpoint: { model: info, sources: meta?.sources ?? [] },
    speed,
    ability,
    agent,
  });
  const saved = redactDeep(results, makeRedactor([o?.apiKey]));
  await writeResults(path, saved);
  say([`  📄 Results saved: ${shortPath(path, io.env['HOME'])}`, '']);
  emit(saved);
  if (endpointFailed) return EXIT.failed;
  return noSandbox ? EXIT.noSandbox : EXIT.ok;
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
    const out = jsonMode(io, values.json);
    return withRunnerErrors(out.io, 'bench-llm', () => benchmark(model, values, out.io, out.emit));
  },
};
