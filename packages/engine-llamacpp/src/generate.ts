import type { ChatReply, ChatRequest, Clock, FinishReason, ToolCall } from '@crucibleforge/core';
import { computeTimings, emptyObserved, type TimedCompletion, type TimingEvent } from '@crucibleforge/timing';
import { LlamaChat, type ChatWrapper, type Llama, type LlamaChatResponseChunk, type LlamaContextSequence, type LlamaGrammar } from 'node-llama-cpp';
import { engineError } from './errors';
import { toChatHistory, toFunctions } from './history';

/** What one request needs of a loaded engine. */
export interface GenerationTarget {
  llama: Llama;
  sequence: LlamaContextSequence;
  chatWrapper: ChatWrapper | 'auto';
  /** The model id replies name. */
  model: string;
  contextSize: number;
}

/** The default output cap when a request names none (an OpenAI server would stop at the context end). */
export const DEFAULT_MAX_TOKENS = 1024;

const FINISH: Record<string, FinishReason> = {
  eogToken: 'stop',
  stopGenerationTrigger: 'stop',
  customStopTrigger: 'stop',
  functionCalls: 'tool_calls',
  maxTokens: 'length',
  abort: 'stop',
};

async function grammarFor(target: GenerationTarget, request: ChatRequest, warnings: string[]): Promise<LlamaGrammar | undefined> {
  if (!request.json_schema) return undefined;
  try {
    return await target.llama.createGrammarForJsonSchema(request.json_schema.schema as never);
  } catch (error) {
    warnings.push(`json_schema "${request.json_schema.name}" is not supported by llama.cpp's grammar (${(error as Error).message}); generated without it`);
    return undefined;
  }
}

/**
 * Runs one chat request on the engine's sequence (its history cleared first: no prompt cache, as the
 * speed benchmark asks of llama.cpp servers) and measures it from the engine's own token events: t0 when
 * the request starts, TTFT at the first generated token, decode over the tokens after it, prefill =
 * prompt tokens ÷ TTFT. Token counts are the engine's (prompt tokens evaluated, reply tokens generated),
 * so `token_source` is `usage` and the client estimate equals them.
 */
export async function generate(
  target: GenerationTarget,
  request: ChatRequest,
  clock: Clock,
  emit: ((event: TimingEvent) => void) | null,
  signal: AbortSignal,
): Promise<TimedCompletion> {
  const warnings: string[] = [];
  const obs = emptyObserved(clock.now());
  const s = (at: number) => (at - obs.t0) / 1000;
  emit?.({ type: 'request-start', at_s: 0 });
  const { sequence } = target;
  await sequence.clearHistory();
  const meter = sequence.tokenMeter.getState();
  const grammar = await grammarFor(target, request, warnings);
  const functions = grammar ? undefined : toFunctions(request.tool_choice === 'none' ? undefined : request.tools);
  const chat = new LlamaChat({ contextSequence: sequence, chatWrapper: target.chatWrapper });
  let content = '';
  let reasoning = '';
  let reasoningTokens = 0;
  const onToken = (tokens: readonly unknown[]) => {
    const at = clock.now();
    obs.totalEvents += 1;
    if (tokens.length === 0) return;
    obs.tokenEvents += 1;
    if (obs.firstTokenAt === null) {
      obs.firstTokenAt = at;
      obs.firstEventChars = tokens.length;
      obs.firstEventEstimate = tokens.length;
    } else obs.gapsMs.push(at - (obs.lastTokenAt ?? at));
    obs.lastTokenAt = at;
    obs.totalChars += tokens.length;
    obs.estimatedTokens += tokens.length;
  };
  const onResponseChunk = (chunk: LlamaChatResponseChunk) => {
    if (chunk.text.length === 0) return;
    const at = clock.now();
    if (chunk.type === 'segment' && chunk.segmentType === 'thought') {
      reasoning += chunk.text;
      reasoningTokens += chunk.tokens.length;
      obs.firstReasoningAt ??= at;
      emit?.({ type: 'reasoning-delta', at_s: s(at), text: chunk.text });
    } else if (chunk.type === undefined) {
      content += chunk.text;
      if (obs.firstContentAt === null && chunk.text.trim().length > 0) obs.firstContentAt = at;
      emit?.({ type: 'text-delta', at_s: s(at), text: chunk.text });
    }
  };
  const maxTokens = Math.min(request.max_tokens ?? DEFAULT_MAX_TOKENS, target.contextSize);
  let response: Awaited<ReturnType<LlamaChat['generateResponse']>>;
  try {
    response = await chat.generateResponse(toChatHistory(request.messages), {
      maxTokens,
      temperature: request.temperature ?? 0,
      signal,
      stopOnAbortSignal: false,
      onToken,
      onResponseChunk,
      ...(request.reasoning === 'off' ? { budgets: { thoughtTokens: 0 } } : {}),
      ...(grammar ? { grammar } : {}),
      ...(functions ? { functions: functions as never } : {}),
    } as never);
  } catch (error) {
    if (signal.aborted) {
      throw engineError('ENGINE_ABORTED', `the request to ${target.model} was cancelled`, { cause: error, details: { model: target.model } });
    }
    const message = error instanceof Error ? error.message : String(error);
    const overflow = /context size|too long|does not fit|exceed/i.test(message);
    throw engineError(overflow ? 'ENGINE_CONTEXT_OVERFLOW' : 'ENGINE_GENERATION_FAILED', `${target.model}: ${message}`, {
      cause: error,
      details: { model: target.model, context_size: target.contextSize },
    });
  } finally {
    chat.dispose({ disposeSequence: false });
  }
  const end = clock.now();
  const used = sequence.tokenMeter.getState();
  const promptTokens = used.usedInputTokens - meter.usedInputTokens;
  // The tokens the engine handed out, as timed: an end-of-generation token or a stop trigger's tokens
  // are sampled (the meter counts them) but never part of the reply, as on a server.
  const completionTokens = obs.estimatedTokens;
  obs.estimatedReasoning = reasoningTokens;
  obs.endAt = end;
  obs.usage = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    reasoning_tokens: reasoning.length > 0 ? reasoningTokens : null,
    cached_tokens: 0,
    cost_usd: null,
  };
  const toolCalls: ToolCall[] = (response.functionCalls ?? []).map((call: { functionName: string; params: unknown }, i: number) => ({
    id: `call_${i}`,
    name: call.functionName,
    arguments: JSON.stringify(call.params ?? {}),
  }));
  const finish = FINISH[response.metadata.stopReason] ?? 'stop';
  if (obs.usage) emit?.({ type: 'usage', at_s: s(end), usage: obs.usage });
  emit?.({ type: 'finish', at_s: s(end), finish_reason: finish });
  emit?.({ type: 'response-end', at_s: s(end) });
  const timings = computeTimings(obs);
  const reply: ChatReply = {
    content,
    reasoning,
    tool_calls: toolCalls,
    finish_reason: finish,
    model: target.model,
    usage: obs.usage,
  };
  return {
    ...timings.values,
    reply,
    requested_model: target.model,
    served_model: target.model,
    wrong_model: false,
    finish_reason: finish,
    // in process: no wire, so nothing can be dropped, mis-decoded or cut off
    stream_integrity: { ok: true, dropped_events: 0, decode_errors: 0, unexpected_end: false },
    warnings: [...warnings, ...timings.warnings],
  };
}
