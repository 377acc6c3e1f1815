import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { closestNames } from '@crucibleforge/core';
import { z } from 'zod';
import { casesError } from './errors';
import { CategorySchema, DifficultySchema, type LoadedCase } from './schema/case';
import { parseYamlDocuments, zodProblems, type SourceProblem } from './yaml-source';

const SelectorSchema = z
  .object({
    all: z.literal(true).optional().describe('every case'),
    ids: z.array(z.string()).optional(),
    categories: z.array(CategorySchema).optional(),
    difficulties: z.array(DifficultySchema).optional(),
    tags: z.array(z.string()).optional().describe('cases with any of these tags'),
    judged: z.boolean().optional().describe('true: cases graded by the judge; false: objective ones'),
  })
  .strict()
  .refine((s) => Object.keys(s).length > 0, 'an empty selector; use `all: true` to select every case');
export type Selector = z.infer<typeof SelectorSchema>;

export const ProfileSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
    description: z.string().optional(),
    include: z.array(SelectorSchema).min(1).describe('a case is selected when any selector matches (fields inside one selector all apply)'),
    exclude: z.array(SelectorSchema).optional().describe('then removed when any of these matches'),
    max_tokens: z.record(CategorySchema, z.int().min(16)).optional().describe('per-category token budget overrides for the runner'),
  })
  .strict();
export type Profile = z.infer<typeof ProfileSchema>;

export type ProfileLoad = { ok: true; profiles: Profile[] } | { ok: false; problems: SourceProblem[] };

/** Parses one profile file's text (pure); the file name (without .yaml) must equal `name`. */
export function parseProfile(text: string, file: string): { profile?: Profile; problems: SourceProblem[] } {
  const parsed = parseYamlDocuments(text, file);
  if (!parsed.ok) return { problems: parsed.problems };
  const y = parsed.docs[0];
  if (!y || parsed.docs.length > 1) return { problems: [{ file, message: 'a profile file holds exactly one YAML document' }] };
  const r = ProfileSchema.safeParse(y.value);
  if (!r.success) return { problems: zodProblems(y, r.error.issues) };
  const base = file.split('/').pop()!.replace(/\.ya?ml$/, '');
  if (r.data.name !== base) return { problems: [{ file, path: 'name', message: `"${r.data.name}" differs from the file name "${base}"` }] };
  return { profile: r.data, problems: [] };
}

/** Loads `<casesDir>/profiles/*.yaml`, all or nothing. A missing folder means no profiles. */
export async function loadProfiles(casesDir: string): Promise<ProfileLoad> {
  const dir = join(casesDir, 'profiles');
  const names = await readdir(dir).catch(() => [] as string[]);
  const profiles: Profile[] = [];
  const problems: SourceProblem[] = [];
  for (const name of names.filter((n) => /\.ya?ml$/.test(n)).sort()) {
    const r = parseProfile(await readFile(join(dir, name), 'utf8'), `profiles/${name}`);
    if (r.profile) profiles.push(r.profile);
    problems.push(...r.problems);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, profiles };
}

export function matchesSelector(c: LoadedCase, s: Selector): boolean {
  const d = c.def;
  if (s.ids && !s.ids.includes(d.id)) return false;
  if (s.categories && !s.categories.includes(d.category)) return false;
  if (s.difficulties && !s.difficulties.includes(d.difficulty)) return false;
  if (s.tags && !s.tags.some((t) => d.tags?.includes(t))) return false;
  if (s.judged !== undefined && (d.grader.type === 'judge') !== s.judged) return false;
  return true;
}

/** The closest names first (for "unknown … did you mean"); it lives in core, shared with the CLI. */
export { closestNames };

/** Throws CASES_UNKNOWN_CASE when an id is not in the set, naming the closest valid ids. */
export function assertKnownIds(ids: string[], cases: LoadedCase[], where: string): void {
  const valid = cases.map((c) => c.def.id);
  const known = new Set(valid);
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length === 0) return;
  const hints = unknown.map((id) => `"${id}" (closest: ${closestNames(id, valid, 3).join(', ')})`);
  throw casesError('CASES_UNKNOWN_CASE', `${where}: unknown case id${unknown.length > 1 ? 's' : ''} ${hints.join('; ')}. ${valid.length} valid ids: ${valid.join(', ')}`, {
    details: { unknown, valid },
  });
}

/** The cases a profile selects, in the set's order. Unknown ids in the profile throw CASES_UNKNOWN_CASE. */
export function applyProfile(profile: Profile, cases: LoadedCase[]): LoadedCase[] {
  const ids = [...profile.include, ...(profile.exclude ?? [])].flatMap((s) => s.ids ?? []);
  assertKnownIds(ids, cases, `profile "${profile.name}"`);
  return cases.filter((c) => profile.include.some((s) => matchesSelector(c, s)) && !(profile.exclude ?? []).some((s) => matchesSelector(c, s)));
}

/** Finds a profile by name; throws CASES_UNKNOWN_PROFILE listing the valid names. */
export function findProfile(profiles: Profile[], name: string): Profile {
  const found = profiles.find((p) => p.name === name);
  if (found) return found;
  const names = profiles.map((p) => p.name);
  throw casesError('CASES_UNKNOWN_PROFILE', `unknown profile "${name}"; valid profiles: ${names.join(', ') || '(none)'}`, { details: { valid: names } });
}
