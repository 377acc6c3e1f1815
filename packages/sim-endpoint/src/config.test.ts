import { CrucibleError } from '@crucibleforge/core';
import { describe, expect, it } from 'vitest';
import { parseSimConfig } from './config';

function problems(value: unknown): string {
  try {
    parseSimConfig(value, 'sim.yaml');
  } catch (error) {
    if (CrucibleError.isInstance(error) && error.code === 'SIM_CONFIG_INVALID') return error.message;
    throw error;
  }
  throw new Error('expected SIM_CONFIG_INVALID');
}

describe('parseSimConfig', () => {
  it('accepts a full data config and turns null fault entries into undefined', () => {
    const config = parseSimConfig(
      {
        port: 8089,
        host: '127.0.0.1',
        api_key: 'k',
        models: [
          {
            id: 'sim-fast',
            first_token_base_ms: 10,
            prefill_tps: 4000,
            decode_tps: 120,
            tokens_per_event: 2,
            reasoning_encoding: 'think_tags',
            usage_placement: 'finish_chunk',
            llamacpp_timings: true,
            role_chunk: false,
            crlf: true,
            keep_alive_ms: 500,
            loading_comments: 2,
            respond_as: 'other',
            context_length: 32768,
            cached_tokens: 3,
            answer: { reasoning: 'r', content: 'c', tool_calls: [{ name: 'f', arguments: { a: 1 } }] },
            faults: [null, { kind: 'status', status: 429, retry_after_s: 2 }, { kind: 'stall', after_tokens: 3, stall_ms: 100 }],
          },
        ],
      },
      'sim.yaml',
    );
    expect(config.models[0]!.faults).toEqual([undefined, { kind: 'status', status: 429, retry_after_s: 2 }, { kind: 'stall', after_tokens: 3, stall_ms: 100 }]);
    expect(config.port).toBe(8089);
  });

  it('names the source and the field path of each problem', () => {
    const message = problems({ models: [{ id: 'a', decode_tps: -1 }, { id: 'b', reasoning_encoding: 'xml' }] });
    expect(message).toMatch(/^sim\.yaml: invalid sim config/);
    expect(message).toContain('models[0].decode_tps');
    expect(message).toContain('models[1].reasoning_encoding');
  });

  it('rejects unknown keys, duplicate ids, bad faults, functions and a missing model list', () => {
    expect(problems({ models: [{ id: 'a', decode_rate: 5 }] })).toContain('decode_rate');
    expect(problems({ models: [{ id: 'a' }, { id: 'a' }] })).toContain('models[1].id: duplicate model id "a"');
    expect(problems({ models: [{ id: 'a', faults: [{ kind: 'explode' }] }] })).toContain('models[0].faults[0]');
    expect(problems({ models: [{ id: 'a', faults: [{ kind: 'status', status: 418 }] }] })).toContain('models[0].faults[0].status');
    expect(problems({ models: [{ id: 'a', answer: () => ({}) }] })).toContain('models[0].answer');
    expect(problems({ models: [] })).toContain('models');
    expect(problems({})).toContain('models');
    expect(problems('nope')).toContain('(root)');
    expect(problems({ models: [{ id: 'a' }], port: 70000 })).toContain('port');
  });
});
