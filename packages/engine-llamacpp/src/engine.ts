import { basename, resolve } from 'node:path';
import { CrucibleError, systemClock, type ChatReply, type ChatRequest, type Clock } from '@crucibleforge/core';
import { readGgufInfo } from '@crucibleforge/speed';
import { EventQueue, type TimedCompletion, type TimedStream, type TimingEvent } from '@crucibleforge/timing';
import type { Llama, LlamaContext, LlamaContextSequence, LlamaModel } from 'node-llama-cpp';
import { benchPpTg, type PpTgOptions, type PpTgReport } from './bench';
import { engineError } from './errors';
import { generate } from './generate';
import { ENGINE_NAME, lastEngineLogs, requireGgufFile, sharedLlama } from './llama';

export interface LlamaCppEngineOptions {
  /** The GGUF file (resolved against the working directory by the caller). */
  gguf: string;
  /** The id replies name (default: the file name without `.gguf`). */
  model?: string;
  /** Context window in tokens (default: the model's trained context, at most 4096). */
  contextSize?: number;
  /** CPU threads for evaluation (default: llama.cpp's choice, the cores useful for math). */
  threads?: number;
  /** Prompt tokens evaluated per batch (default: min(512, context)). */
  batchSize?: number;
  /** Monotonic clock for every timing (default performance.now). */
  clock?: Clock;
}

/**
 * The options with the llama.cpp binding injected (default: the process's shared CPU binding). Not part of the
 * published surface: node-llama-cpp's own declarations do not typecheck under a strict consumer's settings
 * (`skipLibCheck: false`), so no exported type names one of them.
 */
export interface EngineSetup extends LlamaCppEngineOptions {
  llama?: () => Promise<Llama>;
}

/** What a loaded engine runs with. */
export interface EngineInfo {
  engine: string;
  gguf: string;
  model: string;
  /** llama.cpp's description of the model (`llama ?B F16`), llama-bench's model column. */
  model_description: string;
  file_size_bytes: number;
  /** Every weight, from the GGUF header (null when the header does not tell). */
  parameters: number | null;
  context_size: number;
  train_context_size: number;
  threads: number;
  batch_size: number;
  /** Seconds to load the weights and create the context. */
  load_s: number;
}

/**
 * A GGUF model run in process: the same timed chat interface as the HTTP client (`complete`,
 * `completeTimed`, `stream` with the same events and measurements), real tokenisation, and llama-bench
 * style pp/tg. Loads on first use; requests run one at a time on one context sequence.
 */
export interface LlamaCppEngine extends AsyncDisposable {
  readonly model: string;
  /** The streaming client's transport marker: requests run in this process (the speed report's formulas follow it). */
  readonly transport: 'in-process';
  readonly gguf: string;
  /** Loads the model now (it loads on first use otherwise). */
  load(): Promise<EngineInfo>;
  complete(request: ChatRequest): Promise<ChatReply>;
  completeTimed(request: ChatRequest): Promise<TimedCompletion>;
  stream(request: ChatRequest): TimedStream;
  /** The engine tokenizer's token ids for a text (special-token text is not parsed). */
  tokenize(text: string): Promise<number[]>;
  /** Prompt processing of N tokens and generation of M, r repetitions, mean ± sd (llama-bench's pp/tg). */
  benchmark(options?: PpTgOptions): Promise<PpTgReport>;
  /** Frees the context and the weights; later calls throw ENGINE_CLOSED. */
  close(): Promise<void>;
}

interface Loaded {
  llama: Llama;
  model: LlamaModel;
  context: LlamaContext;
  sequence: LlamaContextSequence;
  info: EngineInfo;
}

function positiveInt(name: string, value: number | undefined): void {
  if (value !== undefined && (!Number.isInteger(value) || value < 1)) {
    throw engineError('ENGINE_BAD_OPTIONS', `${name} must be a positive whole number, got ${value}`);
  }
}

/** The model id of a GGUF path: its file name without `.gguf`. */
export function modelIdOf(path: string): string {
  return basename(path).replace(/\.gguf$/i, '');
}

/** A GGUF run in process on llama.cpp: nothing loads until the first request (or `load()`). */
export function createLlamaCppEngine(options: LlamaCppEngineOptions): LlamaCppEngine {
  return createEngine(options);
}

/** `createLlamaCppEngine` with the binding injectable (tests, a caller holding its own `Llama`). */
export function createEngine(options: EngineSetup): LlamaCppEngine {
  positiveInt('contextSize', options.contextSize);
  positiveInt('threads', options.threads);
  positiveInt('batchSize', options.batchSize);
  const path = resolve(options.gguf);
  const modelId = options.model ?? modelIdOf(path);
  const clock = options.clock ?? systemClock;
  let loading: Promise<Loaded> | null = null;
  let closed = false;
  let queue: Promise<unknown> = Promise.resolve();

  async function open(): Promise<Loaded> {
    const size = await requireGgufFile(path);
    const started = clock.now();
    const llama = await (options.llama ?? sharedLlama)();
    let model: LlamaModel;
    try {
      model = await llama.loadModel({ modelPath: path, gpuLayers: 0 });
    } catch (error) {
      const logs = lastEngineLogs();
      throw engineError('ENGINE_LOAD_FAILED', `llama.cpp cannot load ${path}: ${(error as Error).message}${logs.length ? ` (${logs.join('; ')})` : ''}`, {
        cause: error,
        details: { path },
      });
    }
    const train = model.trainContextSize;
    const contextSize = options.contextSize ?? Math.min(4096, train);
    const batchSize = options.batchSize ?? Math.min(512, contextSize);
    let context: LlamaContext;
    try {
      context = await model.createContext({
        contextSize,
        batchSize,
        sequences: 1,
        ...(options.threads ? { threads: options.threads } : {}),
      });
    } catch (error) {
      await model.dispose();
      throw engineError('ENGINE_LOAD_FAILED', `llama.cpp cannot create a ${contextSize}-token context for ${path}: ${(error as Error).message}`, {
        cause: error,
        details: { path, context_size: contextSize },
      });
    }
    const parameters = await readGgufInfo(path).then((g) => g.parameter_count, () => null);
    return {
      llama,
      model,
      context,
      sequence: context.getSequence(),
      info: {
        engine: ENGINE_NAME,
        gguf: path,
        model: modelId,
        model_description: model.typeDescription,
        file_size_bytes: size,
        parameters,
        context_size: context.contextSize,
        train_context_size: train,
        threads: context.currentThreads,
        batch_size: context.batchSize,
        load_s: (clock.now() - started) / 1000,
      },
    };
  }

  function loaded(): Promise<Loaded> {
    if (closed) return Promise.reject(engineError('ENGINE_CLOSED', `the engine for ${path} was closed`));
    loading ??= open().catch((error: unknown) => {
      loading = null;
      throw error;
    });
    return loading;
  }

  /** One request at a time on the single sequence, in arrival order. */
  function exclusive<T>(work: (l: Loaded) => Promise<T>): Promise<T> {
    const run = queue.then(async () => work(await loaded()));
    queue = run.catch(() => undefined);
    return run;
  }

  function stream(request: ChatRequest, events = true): TimedStream {
    const controller = new AbortController();
    const queueOfEvents = events ? new EventQueue<TimingEvent>(() => controller.abort(new Error('the consumer left the event loop'))) : null;
    const signals = [request.signal].filter((x): x is AbortSignal => x !== undefined);
    const onAbort = () => controller.abort(new Error('the request was cancelled'));
    for (const signal of signals) {
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    }
    const result = exclusive((l) => {
      if (controller.signal.aborted) throw engineError('ENGINE_ABORTED', `the request to ${modelId} was cancelled`);
      return generate(
        { llama: l.llama, sequence: l.sequence, chatWrapper: 'auto', model: modelId, contextSize: l.info.context_size },
        request,
        clock,
        queueOfEvents ? (event) => queueOfEvents.push(event) : null,
        controller.signal,
      );
    }).then(
      (completion) => {
        for (const signal of signals) signal.removeEventListener('abort', onAbort);
        queueOfEvents?.close();
        return completion;
      },
      (error: unknown) => {
        for (const signal of signals) signal.removeEventListener('abort', onAbort);
        const typed = CrucibleError.isInstance(error)
          ? error
          : engineError('ENGINE_GENERATION_FAILED', `${modelId}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
        queueOfEvents?.close(typed);
        throw typed;
      },
    );
    result.catch(() => undefined);
    return {
      result,
      abort: (reason?: string) => controller.abort(new Error(reason ?? 'the request was cancelled')),
      [Symbol.asyncIterator]() {
        if (!queueOfEvents) throw engineError('ENGINE_BAD_OPTIONS', 'this stream was created without events and cannot be iterated');
        return queueOfEvents.iterator();
      },
    };
  }

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    const pending = loading;
    loading = null;
    await queue;
    if (!pending) return;
    const l = await pending.catch(() => null);
    if (!l) return;
    await l.context.dispose();
    await l.model.dispose();
  }

  return {
    model: modelId,
    transport: 'in-process',
    gguf: path,
    load: async () => (await loaded()).info,
    stream: (request) => stream(request),
    completeTimed: (request) => stream(request, false).result,
    complete: async (request) => (await stream(request, false).result).reply,
    tokenize: async (text) => [...(await loaded()).model.tokenize(text)].map(Number),
    benchmark: (bench = {}) => exclusive((l) => benchPpTg({ model: l.model, sequence: l.sequence, info: l.info }, bench, clock)),
    close,
    [Symbol.asyncDispose]: close,
  };
}
