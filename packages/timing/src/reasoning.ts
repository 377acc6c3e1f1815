import type { ReasoningMode } from '@crucibleforge/core';
import type { ProviderKind } from './types';

type Body = Record<string, unknown>;

/** Per provider: the request-body fields that switch thinking off / on (integrations §4.3). */
const SWITCHES: Record<ProviderKind, { off: Body; on: Body }> = {
  lmstudio: { off: { reasoning: 'off' }, on: { reasoning: 'on' } },
  ollama: { off: { reasoning_effort: 'none' }, on: { reasoning_effort: 'medium' } },
  llamacpp: {
    off: { chat_template_kwargs: { enable_thinking: false }, reasoning_effort: 'none' },
    on: { chat_template_kwargs: { enable_thinking: true } },
  },
  vllm: {
    off: { chat_template_kwargs: { enable_thinking: false } },
    // Qwen3 reads enable_thinking; Granite and DeepSeek-V3.1 templates read `thinking`.
    on: { chat_template_kwargs: { enable_thinking: true, thinking: true } },
  },
  openrouter: { off: { reasoning: { enabled: false } }, on: { reasoning: { enabled: true } } },
  deepseek: { off: { thinking: { type: 'disabled' } }, on: { thinking: { type: 'enabled' } } },
  openai: { off: { reasoning_effort: 'none' }, on: { reasoning_effort: 'medium' } },
  generic: {
    off: { chat_template_kwargs: { enable_thinking: false } },
    on: { chat_template_kwargs: { enable_thinking: true } },
  },
};

/**
 * The extra request-body fields that turn a model's thinking off or on for one kind of server;
 * `auto` sends nothing (the server's default). The result is a fresh object the caller may keep.
 */
export function reasoningSwitch(providerKind: ProviderKind, mode: ReasoningMode): Body {
  if (mode === 'auto') return {};
  const entry = SWITCHES[providerKind] ?? SWITCHES.generic;
  return structuredClone(entry[mode]);
}

/**
 * Merges extra body fields into a request body: later layers win, `chat_template_kwargs` is merged one
 * level deep so a reasoning switch keeps other template flags.
 */
export function mergeBody(...layers: (Body | undefined)[]): Body {
  const out: Body = {};
  for (const layer of layers) {
    if (!layer) continue;
    for (const [key, value] of Object.entries(layer)) {
      const prev = out[key];
      if (key === 'chat_template_kwargs' && isPlain(prev) && isPlain(value)) out[key] = { ...prev, ...value };
      else out[key] = value;
    }
  }
  return out;
}

function isPlain(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
