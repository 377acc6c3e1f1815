import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { caseSetDir } from '@crucibleforge/case-set';
import { casesDirOf, findCasesDir } from './cases-dir';
import { UsageError } from './io';

// the lookup itself (nearest cases/, the shipped set) is case-set's, tested there; this is the CLI's order and error
const bare = mkdtempSync(join(tmpdir(), 'cf-cases-dir-'));
afterAll(() => rmSync(bare, { recursive: true, force: true }));
const NOWHERE = 'node:nothing';
const io = (cwd: string, env: Record<string, string> = {}) => ({ cwd, env });

describe('casesDirOf', () => {
  it('takes --cases, then $CRUCIBLEFORGE_CASES, both relative to the working directory', () => {
    expect(casesDirOf(io(bare, { CRUCIBLEFORGE_CASES: 'from-env' }), 'mine', NOWHERE)).toBe(join(bare, 'mine'));
    expect(casesDirOf(io(bare, { CRUCIBLEFORGE_CASES: 'from-env' }), undefined, NOWHERE)).toBe(join(bare, 'from-env'));
    expect(casesDirOf(io(bare, { CRUCIBLEFORGE_CASES: '/abs/set' }), undefined, NOWHERE)).toBe('/abs/set');
  });

  it('ends at the shipped set, and says how to name one when there is none', () => {
    expect(findCasesDir(io(bare), undefined, NOWHERE)).toBe(caseSetDir);
    expect(findCasesDir(io(bare), undefined, NOWHERE, null)).toBeNull();
    expect(() => casesDirOf(io(bare), undefined, NOWHERE, null)).toThrow(UsageError);
    expect(() => casesDirOf(io(bare), undefined, NOWHERE, null)).toThrow(/pass --cases DIR/);
  });
});
