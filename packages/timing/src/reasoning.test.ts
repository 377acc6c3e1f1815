import { detectReasoningOff } from '@crucibleforge/sim-endpoint';
import { describe, expect, it } from 'vitest';
import { mergeBody, reasoningSwitch } from './reasoning';
import { buildRequestBody } from './request';
import { PROVIDER_KINDS } from './types';

const messages = [{ role: 'user' as const, content: 'hi' }];

describe('reasoningSwitch', () => {
  it('sends nothing for auto', () => {
    for (const kind of PROVIDER_KINDS) expect(reasoningSwitch(kind, 'auto')).toEqual({});
  });

  it('uses each provider\'s own off switch (recognised by the sim as off)', () => {
    expect(reasoningSwitch('lmstudio', 'off')).toEqual({ reasoning: 'off' });
    expect(reasoningSwitch('ollama', 'off')).toEqual({ reasoning_effort: 'none' });
    expect(reasoningSwitch('llamacpp', 'off')).toMatchObject({ chat_template_kwargs: { enable_thinking: false } });
    expect(reasoningSwitch('vllm', 'off')).toEqual({ chat_template_kwargs: { enable_thinking: false } });
    expect(reasoningSwitch('openrouter', 'off')).toEqual({ reasoning: { enabled: false } });
    expect(reasoningSwitch('deepseek', 'off')).toEqual({ thinking: { type: 'disabled' } });
    expect(reasoningSwitch('openai', 'off')).toEqual({ reasoning_effort: 'none' });
    for (const kind of PROVIDER_KINDS) {
      expect(detectReasoningOff(reasoningSwitch(kind, 'off'), messages), kind).toBe(true);
      expect(detectReasoningOff(reasoningSwitch(kind, 'on'), messages), kind).toBe(false);
    }
  });

  it('turns thinking on where a provider needs it asked', () => {
    expect(reasoningSwitch('deepseek', 'on')).toEqual({ thinking: { type: 'enabled' } });
    expect(reasoningSwitch('vllm', 'on')).toEqual({ chat_template_kwargs: { enable_thinking: true, thinking: true } });
    expect(reasoningSwitch('openrouter', 'on')).toEqual({ reasoning: { enabled: true } });
  });

  it('returns a fresh object each time', () => {
    const a = reasoningSwitch('vllm', 'off') as { chat_template_kwargs: Record<string, unknown> };
    a.chat_template_kwargs.enable_thinking = 'changed';
    expect(reasoningSwitch('vllm', 'off')).toEqual({ chat_template_kwargs: { enable_thinking: false } });
  });
});

describe('buildRequestBody', () => {
  it('streams with usage, maps tool calls and merges chat_template_kwargs one level deep', () => {
    const body = buildRequestBody(
      'qwen3',
      {
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'c', name: 'f', arguments: '{}' }] },
          { role: 'tool', content: '1', tool_call_id: 'c' },
        ],
        max_tokens: 64,
        reasoning: 'off',
      },
      'vllm',
      { chat_template_kwargs: { custom: 1 }, top_k: 20 },
    );
    expect(body).toMatchObject({
      model: 'qwen3',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 64,
      top_k: 20,
      chat_template_kwargs: { custom: 1, enable_thinking: false },
    });
    expect((body.messages as unknown[])[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
    });
    expect((body.messages as unknown[])[2]).toEqual({ role: 'tool', content: '1', tool_call_id: 'c' });
  });

  it('lets later layers win in mergeBody', () => {
    expect(mergeBody({ a: 1, chat_template_kwargs: { x: 1 } }, { a: 2, chat_template_kwargs: { y: 2 } })).toEqual({
      a: 2,
      chat_template_kwargs: { x: 1, y: 2 },
    });
  });
});
