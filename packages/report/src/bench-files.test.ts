import { benchTestLines } from './bench-text';
import { describe, expect, it } from 'vitest';
import { fileSafe, localDate, paintFor, resultsPath, shortPath } from './bench-files';

describe('bench-llm output', () => {
  it('colours only on a terminal without NO_COLOR', () => {
    const fail = { case_id: 'x', title: 'JSON Compliance', category: 'instruct' as const, grade: { status: 'fail' as const, reason: 'missing key' } };
    expect(benchTestLines(fail, 20, paintFor(true, {}))).toEqual([`    JSON Compliance..... \u001b[31mFAIL\u001b[39m`, '\u001b[2m      ↳ missing key\u001b[22m']);
    expect(benchTestLines(fail, 20, paintFor(true, { NO_COLOR: '1' }))[0]).toBe('    JSON Compliance..... FAIL');
    expect(benchTestLines(fail, 20, paintFor(false, {}))[0]).toBe('    JSON Compliance..... FAIL');
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
