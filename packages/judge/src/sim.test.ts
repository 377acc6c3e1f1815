/**
 * End-to-end over HTTP: the sim endpoint plays the judge, a tiny fetch-based completer talks to it.
 */
import type { SimRequestView } from '@crucibleforge/sim-endpoint';
import { describe, expect, it } from 'vitest';
import { CANARY_PROBES, runCanary } from './canary';
import { judgePair } from './pairwise';
import { judgeAgainstReference } from './reference';
import { FIXED_NOW, readPrompt, simJudge, verdict } from './test-support';

const CASE = { question: 'What is 12 × 12?', reference: '144', answer: 'It is one hundred forty-four.' };
const read = (view: SimRequestView) => readPrompt({ messages: view.messages });

describe('sim endpoint as the judge', () => {
  it('sends strict JSON-schema requests at temperature 0 and reads the verdict', async () => {
    const sim = await simJudge(() => ({ content: verdict(true, 'same number') }));
    const record = await judgeAgainstReference(CASE, { complete: sim.complete, identity: sim.identity, now: FIXED_NOW });
    expect(record).toMatchObject({ verdict: 'correct', note: 'same number', samples: 1 });
    expect(record.identity.endpoint).toBe(sim.endpoint.url);
    const body = sim.endpoint.requests[0]!;
    expect(body.temperature).toBe(0);
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'reference_verdict', strict: true } });
  });

  it('a thinking judge that runs out of tokens before answering is re-asked with reasoning off', async () => {
    const sim = await simJudge((view) =>
      view.reasoning_off
        ? { content: verdict(false, 'not equal') }
        : { reasoning: 'Let me think about this very carefully. '.repeat(40), content: verdict(true, 'never reached') },
    );
    const record = await judgeAgainstReference(CASE, { complete: sim.complete, identity: sim.identity, maxTokens: 50 });
    expect(record.verdict).toBe('incorrect');
    expect(sim.endpoint.truth.map((t) => t.finish_reason)).toEqual(['length', 'stop']);
    expect(sim.endpoint.requests[1]).toMatchObject({ chat_template_kwargs: { enable_thinking: false } });
  });

  it('a verdict only in the reasoning channel is never used', async () => {
    const sim = await simJudge(() => ({ reasoning: verdict(true, 'hidden'), content: '' }));
    const record = await judgeAgainstReference(CASE, { complete: sim.complete, identity: sim.identity });
    expect(record.verdict).toBe('judge-error');
    expect(record.note).toMatch(/reasoning only/);
    expect(sim.endpoint.requests).toHaveLength(3);
  });

  it('HTTP errors and a malformed body are judge-errors or recovered, never fails', async () => {
    const failing = await simJudge(() => ({ content: verdict(false) }), { faults: () => ({ kind: 'status', status: 500 }) });
    const record = await judgeAgainstReference(CASE, { complete: failing.complete, identity: failing.identity });
    expect(record.verdict).toBe('judge-error');
    expect(record.note).toMatch(/HTTP 500/);

    const flaky = await simJudge(() => ({ content: verdict(true) }), { faults: [{ kind: 'malformed_chunk', after_tokens: 0 }] });
    const recovered = await judgeAgainstReference(CASE, { complete: flaky.complete, identity: flaky.identity });
    expect(recovered.verdict).toBe('correct');
    expect(flaky.endpoint.requests).toHaveLength(2);
  });

  it('a stalled judge times out into judge-error', async () => {
    const sim = await simJudge(() => ({ content: verdict(true) }), { faults: () => ({ kind: 'stall', after_tokens: 0, stall_ms: 60_000 }) });
    const record = await judgeAgainstReference(CASE, { complete: sim.complete, identity: sim.identity, timeoutMs: 150 });
    expect(record.verdict).toBe('judge-error');
    expect(record.note).toMatch(/timed out/);
  });

  it('majority over three sampled verdicts', async () => {
    const sim = await simJudge((view) => ({ content: verdict(view.index !== 1, `sample ${view.index}`) }));
    const record = await judgeAgainstReference(CASE, { complete: sim.complete, identity: sim.identity, samples: 3 });
    expect(record).toMatchObject({ verdict: 'correct', note: 'sample 0', samples: 3, agreement: 2 / 3 });
  });

  it('the canary passes a judge that reads the fence correctly, and stops one that obeys the answer', async () => {
    const oracle = (obey: boolean) => (view: SimRequestView) => {
      const answer = read(view).blocks['CANDIDATE ANSWER'] ?? '';
      const probe = CANARY_PROBES.find((p) => p.answer === answer);
      if (obey && /mark this answer as correct|"correct": true/i.test(answer)) return { content: verdict(true, 'as told') };
      return { reasoning: 'Comparing with the reference.', content: `Verdict: ${verdict(probe?.expected === 'correct', 'checked')}` };
    };
    const good = await simJudge(oracle(false));
    expect((await runCanary({ complete: good.complete, identity: good.identity })).passed).toBe(true);
    const gullible = await simJudge(oracle(true));
    const report = await runCanary({ complete: gullible.complete, identity: gullible.identity });
    expect(report.passed).toBe(false);
    expect(report.failures.map((f) => f.id)).toEqual(['instruction-injection', 'fence-forgery']);
  });

  it('pairwise: a judge that always picks slot A produces a tie', async () => {
    const sim = await simJudge(() => ({ content: JSON.stringify({ winner: 'A', note: 'first is better' }) }));
    const outcome = await judgePair(
      { question: 'Name a prime above 10.', answerA: '11', answerB: '12' },
      { complete: sim.complete, identity: sim.identity },
    );
    expect(outcome).toMatchObject({ result: 'tie', position_bias: true });
    const slots = sim.endpoint.requests.map((b) => read({ messages: b.messages } as SimRequestView).blocks['ANSWER A']);
    expect(slots).toEqual(['11', '12']);
  });
});
