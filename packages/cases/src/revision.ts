import { createHash } from 'node:crypto';
import type { CaseDef } from './schema/case';

/** JSON with object keys sorted at every level, so key order in a YAML file never changes a hash. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The fields a model sees (directly or through what they generate). Grading-only edits never move the revision. */
export const QUESTION_FIELDS = ['system', 'prompt', 'turns', 'tools', 'tool_script', 'params', 'derive', 'haystack'] as const;

/** The case revision: 12 hex characters of SHA-256 over the question-facing content. */
export function caseRevision(def: CaseDef): string {
  const facing: Record<string, unknown> = {};
  for (const field of QUESTION_FIELDS) facing[field] = def[field];
  return createHash('sha256').update(canonicalJson(facing)).digest('hex').slice(0, 12);
}
