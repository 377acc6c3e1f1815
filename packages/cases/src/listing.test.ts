import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filterCases } from './listing';
import { parseCaseFile } from './loader';
import type { LoadedCase } from './schema/case';
import { slowestCasesLine, verifyResultText, type CaseVerifyResult } from './verify/report';

function fakeCase(id: string, category: string): LoadedCase {
  const text = `id: ${id}\ntitle: ${id}\ncategory: ${category}\ndifficulty: easy\ntags: []\nwhy_hard: because it is built to be hard\nprompt: q\nmax_tokens: 100\ngrader:\n  type: number\nreference:\n  answer: "1"\n  facts: [one]\n`;
  const r = parseCaseFile(text, `${category}/${id}.yaml`);
  if (!r.cases[0]) throw new Error(JSON.stringify(r.problems));
  return r.cases[0];
}

describe('cases verify: filters and lines', () => {
  const all = [fakeCase('math-a', 'math'), fakeCase('math-b', 'math'), fakeCase('prose-c', 'prose')];
  const dir = mkdtempSync(join(tmpdir(), 'cf-filter-'));
  mkdirSync(join(dir, 'math'));
  writeFileSync(join(dir, 'math', 'math-a.yaml'), '');

  it('picks by id or by a folder under the cases dir or the cwd; an unknown id names the closest', () => {
    const ids = (filters: string[], cwd = '/nowhere') => filterCases(cwd, dir, all, all, filters).map((c) => c.def.id);
    expect(ids([])).toEqual(['math-a', 'math-b', 'prose-c']);
    expect(ids(['prose-c'])).toEqual(['prose-c']);
    expect(ids(['math/'])).toEqual(['math-a', 'math-b']);
    expect(ids(['math'], dir)).toEqual(['math-a', 'math-b']);
    expect(filterCases('/nowhere', dir, all, [all[0]!], ['math-b'])).toEqual([]);
    expect(() => ids(['math-aa'])).toThrow(/cases verify: unknown case id "math-aa" \(closest: math-a/);
  });

  it('prints FAIL with its problems; ok, warnings and the slowest only when verbose', () => {
    const r = (id: string, ok: boolean, sandbox: number) =>
      ({ id, file: `math/${id}.yaml`, ok, problems: ok ? [] : ['wrong answer'], warnings: ['slow'], elapsed_ms: 1500, sandbox_ms: sandbox }) as unknown as CaseVerifyResult;
    expect(verifyResultText(r('a', false, 0), false)).toBe('FAIL a (math/a.yaml)\n  - wrong answer\n');
    expect(verifyResultText(r('a', true, 0), false)).toBe('');
    expect(verifyResultText(r('a', true, 500), true)).toBe('ok   a (1.5 s; sandbox 0.5 s)\n  warning: slow\n');
    expect(slowestCasesLine([r('a', true, 500), r('b', true, 2000)])).toBe('slowest (own sandbox time): b 2.0 s, a 0.5 s; all cases 2.5 s of sandbox time\n');
  });
});
