import { fileURLToPath } from 'node:url';

/** A small case set (maths, reasoning, code, a tool script, a judged prose case) with `quick` and `test` profiles. */
export const FIXTURE_CASES_DIR = fileURLToPath(new URL('../fixtures/cases', import.meta.url));

/** The repository's real case set (`cases/`). */
export const REAL_CASES_DIR = fileURLToPath(new URL('../../../cases', import.meta.url));

/** The repository root (where AGENTS.md and the workspace live). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
