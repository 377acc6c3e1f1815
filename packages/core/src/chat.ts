/** One tool call as the model made it; `arguments` is the raw JSON text the model produced. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface ToolDefinition {
  type: 'function';
  function: {
    name: string;
    description?: string;
    parameters?: Record<string, unknown>;
  };
}

export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';

export interface ChatMessage {
  role: ChatRole;
  content: string | null;
  /** assistant turns that called tools */
  tool_calls?: ToolCall[];
  /** tool result turns */
  tool_call_id?: string;
  name?: string;
}

/** How hard a model should think: `off` uses the provider's own switch (see integrations §4.3). */
export type ReasoningMode = 'auto' | 'on' | 'off';

export interface ChatRequest {
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  tool_choice?: 'auto' | 'none' | 'required';
  max_tokens?: number;
  temperature?: number;
  reasoning?: ReasoningMode;
  /**
   * false: ask the server not to reuse a cached prompt prefix (llama.cpp `cache_prompt`), so prefill is
   * measured; other servers ignore it. Default: the server's own caching.
   */
  prompt_cache?: boolean;
  /** A JSON schema the reply must follow, where the endpoint supports structured output. */
  json_schema?: { name: string; schema: Record<string, unknown> };
  signal?: AbortSignal;
}

export interface TokenUsage {
  prompt_tokens: number | null;
  completion_tokens: number | null;
  reasoning_tokens: number | null;
  cached_tokens: number | null;
  /** Provider-reported cost in USD (OpenRouter's `usage.cost`), when present. */
  cost_usd: number | null;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error' | null;

export interface ChatReply {
  content: string;
  reasoning: string;
  tool_calls: ToolCall[];
  finish_reason: FinishReason;
  /** The model the response says it came from (for the wrong-model guard). */
  model: string | null;
  usage: TokenUsage;
}

/**
 * The one chat call the judge and the runner need. The runner fills it with the timing client;
 * tests fill it with a fake or the sim endpoint.
 */
export interface ChatCompleter {
  complete(request: ChatRequest): Promise<ChatReply>;
}
