import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { caseSetDir } from './dir';
import { defaultCasesDir, findCasesDir, shippedCasesDir } from './locate';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'cf-case-set-locate-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** tmp/with-set/cases/schema.json, tmp/with-set/deep/er, and tmp/bare/cases without a schema. */
const withSet = join(tmp, 'with-set');
mkdirSync(join(withSet, 'cases'), { recursive: true });
writeFileSync(join(withSet, 'cases', 'schema.json'), '{}');
mkdirSync(join(withSet, 'deep', 'er'), { recursive: true });
mkdirSync(join(tmp, 'bare', 'cases'), { recursive: true });

const NOWHERE = 'node:nothing';

describe('defaultCasesDir', () => {
  it('walks up from the working directory to a cases/ with schema.json', () => {
    expect(defaultCasesDir(join(withSet, 'deep', 'er'), NOWHERE)).toBe(join(withSet, 'cases'));
    expect(defaultCasesDir(withSet, NOWHERE)).toBe(join(withSet, 'cases'));
  });

  it('skips a cases/ without schema.json, then tries from the module file', () => {
    expect(defaultCasesDir(join(tmp, 'bare'), NOWHERE)).toBeNull();
    const module = pathToFileURL(join(REPO, 'apps', 'cli', 'dist', 'cli.js')).href;
    expect(defaultCasesDir(join(tmp, 'bare'), module)).toBe(join(REPO, 'cases'));
  });
});

describe('findCasesDir', () => {
  it('takes the named directory relative to the working directory, then the nearest set, then the shipped one', () => {
    expect(findCasesDir(tmp, 'mine', NOWHERE)).toBe(join(tmp, 'mine'));
    expect(findCasesDir(tmp, '/abs/set', NOWHERE)).toBe('/abs/set');
    expect(findCasesDir(join(withSet, 'deep'), undefined, NOWHERE)).toBe(join(withSet, 'cases'));
    expect(findCasesDir(join(tmp, 'bare'), undefined, NOWHERE, null)).toBeNull();
  });

  it('ends at the case set shipped in this package', () => {
    expect(shippedCasesDir()).toBe(caseSetDir);
    expect(findCasesDir(join(tmp, 'bare'), undefined, NOWHERE)).toBe(caseSetDir);
    expect(findCasesDir(join(tmp, 'bare'), undefined, NOWHERE, join(tmp, 'shipped'))).toBe(join(tmp, 'shipped'));
  });
});
