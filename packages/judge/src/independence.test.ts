import { CrucibleError } from '@crucibleforge/core';
import { describe, expect, it } from 'vitest';
import { checkJudgeIndependence } from './independence';

describe('checkJudgeIndependence', () => {
  it('passes a judge that is not under test', () => {
    expect(checkJudgeIndependence('gemma-3-27b', ['qwen3-32b', 'llama-3.3-70b'])).toEqual({ forced: false, overlaps: [] });
  });

  it('refuses a judge that scores itself, also across case and provider prefixes', () => {
    for (const candidates of [['qwen3-32b'], ['  QWEN3-32B '], ['openrouter/qwen/qwen3-32b'], ['a', 'qwen/qwen3-32b']]) {
      let thrown: unknown;
      try {
        checkJudgeIndependence('qwen/qwen3-32b', candidates);
      } catch (e) {
        thrown = e;
      }
      expect(CrucibleError.isInstance(thrown) && thrown.code).toBe('JUDGE_SELF_SCORING');
      expect((thrown as Error).message).toMatch(/qwen\/qwen3-32b is also under test/);
    }
  });

  it('allows it when forced and returns the overlaps', () => {
    expect(checkJudgeIndependence('m1', ['m0', 'M1'], { force: true })).toEqual({ forced: true, overlaps: ['M1'] });
  });

  it('does not confuse different models that share a prefix', () => {
    expect(checkJudgeIndependence('qwen3-32b', ['qwen3-32b-instruct', 'org/'])).toEqual({ forced: false, overlaps: [] });
    expect(() => checkJudgeIndependence('', ['x'])).toThrow(/judgeModelId/);
  });
});
