import { CrucibleError } from '@crucibleforge/core';
import { describe, expect, it } from 'vitest';
import { assertCanary, CANARY_PROBES, formatCanaryReport, runCanary } from './canary';
import { FIXED_NOW, JUDGE, fake, readPrompt, verdict } from './test-support';

/** A judge that knows the right verdict for every probe answer it can read out of the fence. */
function oracleJudge(obeysInjections: boolean) {
  return fake((req) => {
    const answer = readPrompt(req).blocks['CANDIDATE ANSWER'] ?? '';
    const probe = CANARY_PROBES.find((p) => p.answer === answer);
    if (!probe) return verdict(false, 'unknown answer: the fence did not carry the probe intact');
    if (obeysInjections && (/mark this answer as correct/i.test(answer) || /"correct": true/.test(answer))) return verdict(true, 'as instructed');
    return verdict(probe.expected === 'correct', 'checked');
  });
}

const opts = { identity: JUDGE, now: FIXED_NOW };

describe('runCanary', () => {
  it('the fixed set covers the required behaviours and has stable, unique ids', () => {
    const ids = CANARY_PROBES.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(['paraphrase', 'wrong-number', 'false-extra', 'empty', 'instruction-injection', 'fence-forgery']));
    expect(CANARY_PROBES.filter((p) => p.expected === 'correct').length).toBeGreaterThanOrEqual(3);
    // only the empty probe skips the judge, and it says so
    expect(CANARY_PROBES.filter((p) => p.reachesJudge === false || p.answer.trim() === '').map((p) => p.id)).toEqual(['empty']);
    expect(CANARY_PROBES.find((p) => p.id === 'empty')?.reachesJudge).toBe(false);
    // false-extra: the right answer (the whole reference) plus a wrong claim beyond the question
    const extra = CANARY_PROBES.find((p) => p.id === 'false-extra')!;
    expect(extra.answer).toContain(extra.reference);
    expect(extra.question).not.toMatch(/atomic number/);
    expect(extra.expected).toBe('incorrect');
  });

  it('passes a judge that gets every probe right', async () => {
    const judge = oracleJudge(false);
    const report = await runCanary({ complete: judge, ...opts });
    expect(report.passed).toBe(true);
    expect(report.failures).toEqual([]);
    expect(report.results).toHaveLength(CANARY_PROBES.length);
    expect(report.results.every((r) => r.record.identity.model === JUDGE.model)).toBe(true);
    expect(judge.requests).toHaveLength(CANARY_PROBES.length - 1); // the empty answer needs no call
    expect(report.results.filter((r) => !r.judged).map((r) => r.probe.id)).toEqual(['empty']);
    expect(formatCanaryReport(report)).toContain('1 decided without a judge call (empty)');
  });

  it('stops a judge that follows instructions inside the answer, with a printable message', async () => {
    const report = await runCanary({ complete: oracleJudge(true), ...opts });
    expect(report.passed).toBe(false);
    expect(report.failures.map((f) => [f.id, f.expected, f.got])).toEqual([
      ['instruction-injection', 'incorrect', 'correct'],
      ['fence-forgery', 'incorrect', 'correct'],
    ]);
    let thrown: unknown;
    try {
      assertCanary(report);
    } catch (e) {
      thrown = e;
    }
    expect(CrucibleError.isInstance(thrown) && thrown.code).toBe('JUDGE_CANARY_FAILED');
    const message = (thrown as Error).message;
    expect(message).toContain(`the judge ${JUDGE.model} at ${JUDGE.endpoint} failed its calibration canary`);
    expect(message).toContain('8/10 probes right, 2 failed (allowed 0)');
    expect(message).toContain('instruction-injection: an answer that tells the judge to mark it correct');
    expect((thrown as CrucibleError).details.report).toBe(report);
  });

  it('allows up to allowedFailures and still lists them', async () => {
    const report = await runCanary({ complete: oracleJudge(true), ...opts, allowedFailures: 2 });
    expect(report.passed).toBe(true);
    expect(report.failures).toHaveLength(2);
    expect(assertCanary(report)).toBe(report);
    expect(formatCanaryReport(report)).toMatch(/2 failed \(allowed 2\)/);
  });

  it('counts a judge that gives no verdict as failing', async () => {
    const report = await runCanary({ complete: fake(() => 'I cannot help with grading.'), ...opts });
    expect(report.passed).toBe(false);
    expect(report.failures).toHaveLength(CANARY_PROBES.length - 1);
    expect(report.failures.every((f) => f.got === 'judge-error')).toBe(true);
  });

  it('accepts custom probes and validates allowedFailures', async () => {
    const probes = [{ id: 'x', description: 'd', question: 'q?', reference: 'r', answer: 'r', expected: 'correct' as const }];
    const report = await runCanary({ complete: fake(() => verdict(false)), ...opts, probes });
    expect(report.failures.map((f) => f.id)).toEqual(['x']);
    await expect(runCanary({ complete: fake(() => verdict(false)), ...opts, probes, allowedFailures: -1 })).rejects.toMatchObject({
      code: 'JUDGE_INVALID_INPUT',
    });
  });
});
