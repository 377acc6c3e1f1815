import { CrucibleError, type ChatRequest } from '@crucibleforge/core';
import { describe, expect, it } from 'vitest';
import { judgePair } from './pairwise';
import { judgeAgainstReference } from './reference';
import { runCanary } from './canary';
import { FIXED_NOW, JUDGE, counterRandom, reply, verdict } from './test-support';

const CASE = { question: 'How many legs does a spider have?', reference: '8', answer: 'Eight legs.' };
const opts = { identity: JUDGE, now: FIXED_NOW, random: counterRandom() };

describe('complete: a ChatCompleter or a plain function', () => {
  it('takes a bare (request) => Promise<ChatReply> and calls it with the request', async () => {
    const seen: ChatRequest[] = [];
    const record = await judgeAgainstReference(CASE, {
      ...opts,
      complete: async (request) => {
        seen.push(request);
        return reply(verdict(true, 'same count'));
      },
    });
    expect(record.verdict).toBe('correct');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.json_schema?.name).toBe('reference_verdict');
  });

  it('takes a bare function in judgePair too', async () => {
    const outcome = await judgePair({ question: 'q?', answerA: 'a', answerB: 'b' }, { ...opts, complete: async () => reply('{"winner": "tie", "note": "same"}') });
    expect(outcome.result).toBe('tie');
  });

  it.each([
    ['an object without complete()', { chat: () => null }, /an object without a complete\(\) method/],
    ['a string', 'http://judge', /got string/],
    ['null', null, /got null/],
  ])('refuses %s with JUDGE_INVALID_INPUT naming the field, before any call', async (_what, value, message) => {
    const attempt = judgeAgainstReference(CASE, { ...opts, complete: value as never });
    await expect(attempt).rejects.toMatchObject({ code: 'JUDGE_INVALID_INPUT', details: { field: 'complete' } });
    await expect(judgeAgainstReference(CASE, { ...opts, complete: value as never })).rejects.toThrow(message);
    await expect(judgeAgainstReference(CASE, { ...opts, complete: value as never })).rejects.toSatisfy(CrucibleError.isInstance);
    await expect(runCanary({ ...opts, complete: value as never })).rejects.toMatchObject({ code: 'JUDGE_INVALID_INPUT' });
    await expect(judgePair({ question: 'q', answerA: 'a', answerB: 'b' }, { ...opts, complete: value as never })).rejects.toMatchObject({ code: 'JUDGE_INVALID_INPUT' });
  });
});
