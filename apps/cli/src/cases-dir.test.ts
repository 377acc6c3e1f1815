import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { caseSetDir } from '@crucibleforge/case-set';
import { casesDirOf, findCasesDir } from './cases-dir';
import { UsageError } from './io';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'cf-cases-dir-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** tmp/with-set/cases/schema.json, tmp/with-set/deep/er, and tmp/bare/cases without a schema. */
const withSet = join(tmp, 'with-set');
mkdirSync(join(withSet, 'cases'), { recursive: true });
writeFileSync(join(withSet, 'cases', 'schema.json'), '{}');
mkdirSync(join(withSet, 'deep', 'er'), { recursive: true });
mkdirSync(join(tmp, 'bare', 'cases'), { recursive: true });

const NOWHERE = 'node:nothing';

describe('casesDirOf', () => {
  const io = (cwd: string, env: Record<string, string> = {}) => ({ cwd, env });

  it('takes --cases, then $CRUCIBLEFORGE_CASES, both relative to the working directory', () => {
    expect(casesDirOf(io(tmp, { CRUCIBLEFORGE_CASES: 'from-env' }), 'mine', NOWHERE)).toBe(join(tmp, 'mine'));
    expect(casesDirOf(io(tmp, { CRUCIBLEFORGE_CASES: 'from-env' }), undefined, NOWHERE)).toBe(join(tmp, 'from-env'));
    expect(casesDirOf(io(tmp, { CRUCIBLEFORGE_CASES: '/abs/set' }), undefined, NOWHERE)).toBe('/abs/set');
  });

  it('falls back to the nearest case set, and says how to name one when there is none', () => {
    expect(casesDirOf(io(join(withSet, 'deep')), undefined, NOWHERE)).toBe(join(withSet, 'cases'));
    expect(casesDirOf(io(join(tmp, 'bare')), undefined)).toBe(join(REPO, 'cases'));
    expect(findCasesDir(io(join(tmp, 'bare')), undefined, NOWHERE, null)).toBeNull();
    expect(() => casesDirOf(io(join(tmp, 'bare')), undefined, NOWHERE, null)).toThrow(UsageError);
    expect(() => casesDirOf(io(join(tmp, 'bare')), undefined, NOWHERE, null)).toThrow(/pass --cases DIR/);
  });

  it('ends at the case set shipped in @crucibleforge/case-set, found by package resolution', () => {
    expect(findCasesDir(io(join(tmp, 'bare')), undefined, NOWHERE)).toBe(caseSetDir);
    expect(findCasesDir(io(join(tmp, 'bare')), undefined, NOWHERE, join(tmp, 'shipped'))).toBe(join(tmp, 'shipped'));
  });
});
