import { fileURLToPath } from 'node:url';

/** The file that marks a case directory (the JSON Schema every case file follows). */
export const CASE_SET_MARKER = 'schema.json';

/**
 * The absolute path of the shipped case set: one folder per category, `profiles/`, `schema.json` and the
 * authoring guide `README.md`. Pass it to `loadCases` / `loadProfiles` of `@crucibleforge/cases`.
 */
export const caseSetDir: string = fileURLToPath(new URL('../cases/', import.meta.url)).replace(/\/$/, '');
