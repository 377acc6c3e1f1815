import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CASE_SET_MARKER, caseSetDir } from './index';

const repoCases = fileURLToPath(new URL('../../../cases/', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((entry) => statSync(join(dir, entry)).isFile())
    .sort();
}

describe('caseSetDir', () => {
  it('holds the schema, the profiles and every category folder', () => {
    expect(statSync(join(caseSetDir, CASE_SET_MARKER)).isFile()).toBe(true);
    expect(statSync(join(caseSetDir, 'profiles', 'standard.yaml')).isFile()).toBe(true);
    expect(readdirSync(caseSetDir)).toEqual(expect.arrayContaining(['coding', 'math', 'prose', 'README.md']));
  });

  it("is an exact copy of the repository's cases/ (a stale copy means: run the build)", () => {
    const shipped = filesUnder(caseSetDir);
    expect(shipped, `the copy under ${relative(process.cwd(), caseSetDir)} is stale: pnpm --filter @crucibleforge/case-set build`).toEqual(filesUnder(repoCases));
    const differing = shipped.filter((file) => !readFileSync(join(caseSetDir, file)).equals(readFileSync(join(repoCases, file))));
    expect(differing).toEqual([]);
  });
});
