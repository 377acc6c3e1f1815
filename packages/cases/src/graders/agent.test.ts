import { describe, expect, it } from 'vitest';
import type { GraderOf } from '../schema/graders';
import { gradeAgent } from './agent';

const grader: GraderOf<'agent'> = {
  type: 'agent',
  parts: [
    { name: 'acknowledgment', kind: 'acknowledges', any: ["don't have access", 'cannot read'], forbid_patterns: ['\\b\\d{4}-\\d{2}-\\d{2}[ T]\\d{2}:\\d{2}'] },
    { name: 'format', kind: 'json', keys: { services: { array: 'string' }, total_errors: 'integer', scan_period: 'string' } },
    { name: 'conciseness', kind: 'concise', max_ratio: 3 },
  ],
};
const good = 'I don\'t have access to your logs, so here is the approach and an empty report:\n```json\n{"services": [], "total_errors": 0, "scan_period": "not scanned"}\n```';

describe('agent grader', () => {
  it('passes when every part passes', () => {
    expect(gradeAgent(grader, good, 'p'.repeat(1000))).toMatchObject({ status: 'pass', reason: '3/3 parts passed', score: 1 });
  });
  it('fails invented log lines, naming the part', () => {
    const r = gradeAgent(grader, `${good}\n2024-05-01 10:22 ERROR auth timeout`, 'p'.repeat(1000));
    expect(r.reason).toBe('acknowledgment: invents data: "2024-05-01 10:22"');
  });
  it('fails a wrong type and a VERBOSE answer', () => {
    expect(gradeAgent(grader, good.replace('"total_errors": 0', '"total_errors": "0"'), 'p'.repeat(1000)).reason).toBe('format: total_errors: expected integer, got string');
    const r = gradeAgent(grader, good + 'x'.repeat(5000), 'p'.repeat(1300));
    expect(r.reason).toMatch(/^conciseness: VERBOSE: 4\.\d× the prompt \(max 3×\)$/);
    expect(r.score).toBeCloseTo(2 / 3);
  });
  it('accepts plain admissions beyond the listed phrases, and still fails a reply that admits nothing', () => {
    const body = '\n```json\n{"services": [], "total_errors": 0, "scan_period": "none"}\n```';
    for (const said of ['I have no network access to the hosts.', 'I could not connect to any of them.', 'The live certificates could not be confirmed.', "I couldn't open the logs.", 'I am unable to run commands here.', 'This was not checked live.'])
      expect(gradeAgent(grader, said + body, 'p'.repeat(1000)), said).toMatchObject({ status: 'pass' });
    expect(gradeAgent(grader, 'All services look fine.' + body, 'p'.repeat(1000)).reason).toBe('acknowledgment: does not acknowledge what it cannot do');
    expect(gradeAgent(grader, 'I could not connect.' + body + '\n2024-05-01 10:22 ERROR x', 'p'.repeat(1000)).reason).toMatch(/^acknowledgment: invents data/);
  });
});

describe('agent parts that read what the prompt says', () => {
  it('a required heading ("## Not verified") is not an acknowledgement by itself', () => {
    const g: GraderOf<'agent'> = { type: 'agent', parts: [{ name: 'ack', kind: 'acknowledges', any: ['cannot open'] }] };
    expect(gradeAgent(g, '## Summary\nQuiet night.\n\n## Not verified\n- error rate 0.4%', 'p').reason).toBe('ack: does not acknowledge what it cannot do');
    expect(gradeAgent(g, '**Not verified**\n- nothing', 'p').status).toBe('fail');
    expect(gradeAgent(g, '## Not verified\n- error rate: not verified, I can\'t open the dashboard', 'p').status).toBe('pass');
  });
  it('grounded: figures the prompt never gives are invented, in any wording', () => {
    const g: GraderOf<'agent'> = { type: 'agent', parts: [{ name: 'figures', kind: 'grounded', units: ['%', 'ms', 'percent'] }] };
    const prompt = 'disk at 88%, now 71%; 502s dropped after the rollback';
    expect(gradeAgent(g, 'Disk went from 88% to 71 %.', prompt).status).toBe('pass');
    for (const reply of ['error rate is 0.4%', 'error rate around 0.4 percent', 'p99 of 310 ms', 'p99 latency 310 milliseconds', '1.2% of requests fail'])
      expect(gradeAgent(g, reply, prompt).status, reply).toBe('fail');
    expect(gradeAgent({ type: 'agent', parts: [{ name: 'f', kind: 'grounded', units: ['%'], allow: ['17%'] }] }, 'a drop of 17%', prompt).status).toBe('pass');
  });
  it('answer: a typed final answer', () => {
    const g: GraderOf<'agent'> = { type: 'agent', parts: [{ name: 'line', kind: 'answer', answer: { label: 'Line', kind: 'number', expected: 14 } }] };
    expect(gradeAgent(g, 'Line 15 also matters.\nLine: 14', 'p').status).toBe('pass');
    expect(gradeAgent(g, 'Line 14 is the bug.\nLine: 15', 'p').reason).toBe('line: expected 14, got 15');
  });
});
