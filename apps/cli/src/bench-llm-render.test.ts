import { describe, expect, it } from 'vitest';
import type { TestResult } from './bench-llm-ability';
import { dotWidth, paintFor, scores, testLines } from './bench-llm-render';
import { fileSafe, localDate, resultsPath, shortPath } from './bench-llm-results';

const result = (over: Partial<TestResult>): TestResult => ({
  id: 'x',
  title: 'JSON Compliance',
  category: 'instruct',
  revision: 'r',
  seed: null,
  status: 'pass',
  reason: 'ok',
  score: 1,
  parts: null,
  details: null,
  overflow: { happened: false, recovered: false },
  requests: [],
  transcript: [],
  ...over,
});

describe('bench-llm output', () => {
  it('colours PASS/FAIL only on a terminal without NO_COLOR', () => {
    const width = dotWidth(['JSON Compliance', 'Logic Puzzle (Pet Ownership)']);
    const fail = result({ status: 'fail', reason: 'missing key "tags"' });
    expect(testLines(fail, width, paintFor(true, {}))).toEqual([
      `    JSON Compliance${'.'.repeat(width - 15)} \u001b[31mFAIL\u001b[39m`,
      '\u001b[2m      ↳ missing key "tags"\u001b[22m',
    ]);
    expect(testLines(fail, width, paintFor(true, { NO_COLOR: '1' }))[0]).toMatch(/\.{3,} FAIL$/);
    expect(testLines(result({}), width, paintFor(false, {}))).toEqual([`    JSON Compliance${'.'.repeat(width - 15)} PASS`]);
  });

  it('scores one point per ability test and one per agent part', () => {
    const agent = result({
      category: 'agent',
      status: 'fail',
      parts: [
        { name: 'Task Acknowledgment', pass: false, reason: 'invents data' },
        { name: 'Format Adherence', pass: true, reason: 'ok' },
        { name: 'Conciseness', pass: true, reason: 'ok' },
      ],
    });
    expect(scores([result({}), result({ status: 'fail' }), result({ status: 'skipped' })], [agent])).toEqual({ ability: 1, abilityTotal: 3, agent: 2, agentTotal: 3 });
    expect(testLines(agent, 24, paintFor(false, {})).filter((l) => !l.includes('↳'))).toEqual([
      '    Task Acknowledgment..... FAIL',
      '    Format Adherence........ PASS',
      '    Conciseness............. PASS',
    ]);
  });

  it('names the results file after the model and the local date, under ~/benchmarks unless told otherwise', () => {
    const date = new Date(2026, 7, 11, 23, 30);
    expect(localDate(date)).toBe('2026-08-11');
    expect(fileSafe('lmstudio-community/gemma-4-31b-it:Q4')).toBe('lmstudio-community_gemma-4-31b-it_Q4');
    expect(resultsPath({ cwd: '/w', home: '/h', model: 'gemma-4-31b-it', date })).toBe('/h/benchmarks/gemma-4-31b-it-2026-08-11.json');
    expect(resultsPath({ cwd: '/w', home: '/h', model: 'm', date, out: 'res' })).toBe('/w/res/m-2026-08-11.json');
    expect(resultsPath({ cwd: '/w', home: '/h', model: 'm', date, out: '/tmp/x.json' })).toBe('/tmp/x.json');
    expect(resultsPath({ cwd: '/w', home: undefined, model: 'm', date })).toBe('/w/benchmarks/m-2026-08-11.json');
    expect(shortPath('/h/benchmarks/m.json', '/h')).toBe('~/benchmarks/m.json');
    expect(shortPath('/hx/m.json', '/h')).toBe('/hx/m.json');
  });
});
