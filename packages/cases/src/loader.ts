import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { CATEGORIES } from '@crucibleforge/core';
import { basesOf, programsFrom, resolveExtends } from './extend';
import { isSeeded } from './materialize';
import { caseRevision } from './revision';
import { CaseSchema, type LoadedCase } from './schema/case';
import { semanticProblems } from './semantic';
import { formatPath, parseYamlDocuments, positionOf, zodProblems, type SourceProblem, type YamlDoc } from './yaml-source';

export type LoadProblem = SourceProblem;

export type LoadResult =
  | { ok: true; dir: string; cases: LoadedCase[] }
  | { ok: false; dir: string; problems: LoadProblem[] };

/** Folders under the cases dir that hold no cases. */
export const NON_CASE_DIRS = new Set(['profiles']);

/**
 * Parses and validates one case file's text (pure). `file` is the path shown in problems; `bases` are the
 * raw documents a case may `extends` (id → document; the set's other files), its own file's are added.
 */
export function parseCaseFile(
  text: string,
  file: string,
  bases: ReadonlyMap<string, Record<string, unknown>> = new Map(),
): { cases: LoadedCase[]; problems: LoadProblem[] } {
  const parsed = parseYamlDocuments(text, file);
  if (!parsed.ok) return { cases: [], problems: parsed.problems };
  const all = new Map([...basesOf(parsed.docs.map((d) => d.value)), ...bases]);
  return validateDocs(parsed.docs, file, all);
}

function validateDocs(docs: readonly YamlDoc[], file: string, bases: ReadonlyMap<string, Record<string, unknown>>): { cases: LoadedCase[]; problems: LoadProblem[] } {
  const cases: LoadedCase[] = [];
  const problems: LoadProblem[] = [];
  const folder = file.includes('/') ? file.split('/')[0]! : null;
  for (const y of docs) {
    const resolved = resolveExtends(y.value, bases);
    if (!resolved.ok) {
      problems.push({ file, ...positionOf(y, ['extends']), path: 'extends', message: resolved.message });
      continue;
    }
    const result = CaseSchema.safeParse(resolved.value);
    if (!result.success) {
      problems.push(...zodProblems(y, result.error.issues));
      continue;
    }
    const def = result.data;
    const semantic = semanticProblems(def);
    for (const p of semantic) problems.push({ file, ...positionOf(y, p.path), path: formatPath(p.path), message: p.message });
    if (folder !== null && folder !== def.category) {
      problems.push({ file, ...positionOf(y, ['category']), path: 'category', message: `"${def.category}" case in the "${folder}/" folder` });
    }
    if (semantic.length > 0) continue;
    const programsOf = programsFrom(y.value);
    cases.push({ def, file, revision: caseRevision(def), seeded: isSeeded(def), ...(programsOf !== null && { programsOf }) });
  }
  return { cases, problems };
}

async function yamlFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    const entries = await readdir(d, { withFileTypes: true });
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.name.startsWith('.')) continue;
      const full = join(d, e.name);
      if (e.isDirectory()) {
        if (d === dir && NON_CASE_DIRS.has(e.name)) continue;
        await walk(full);
      } else if (/\.ya?ml$/.test(e.name)) {
        out.push(full);
      }
    }
  };
  await walk(dir);
  return out;
}

const categoryOrder = (c: string) => CATEGORIES.indexOf(c as (typeof CATEGORIES)[number]);

/** Sorts cases by category (core's order), then id. */
export function sortCases(cases: LoadedCase[]): LoadedCase[] {
  return [...cases].sort((a, b) => categoryOrder(a.def.category) - categoryOrder(b.def.category) || a.def.id.localeCompare(b.def.id));
}

/** Duplicate ids name both files (and lines). */
export function duplicateProblems(cases: LoadedCase[]): LoadProblem[] {
  const first = new Map<string, LoadedCase>();
  const problems: LoadProblem[] = [];
  for (const c of cases) {
    const seen = first.get(c.def.id);
    if (seen) problems.push({ file: c.file, path: 'id', message: `duplicate id "${c.def.id}" (also in ${seen.file})` });
    else first.set(c.def.id, c);
  }
  return problems;
}

/**
 * Loads every case under `dir` (recursively, `<category>/…/*.yaml`; `profiles/` is skipped). All or
 * nothing: any problem in any file and no case is returned. Problems carry file:line:column and the
 * path inside the case.
 */
export async function loadCases(dir: string): Promise<LoadResult> {
  const info = await stat(dir).catch(() => null);
  if (!info?.isDirectory()) return { ok: false, dir, problems: [{ file: dir, message: 'cases directory not found' }] };
  const files = await yamlFiles(dir);
  const cases: LoadedCase[] = [];
  const problems: LoadProblem[] = [];
  const parsed: { rel: string; docs: YamlDoc[]; problems: LoadProblem[] }[] = [];
  for (const full of files) {
    const rel = relative(dir, full).split(sep).join('/');
    if (!rel.includes('/')) {
      parsed.push({ rel, docs: [], problems: [{ file: rel, message: 'case files live in a category folder (e.g. math/<id>.yaml)' }] });
      continue;
    }
    const p = parseYamlDocuments(await readFile(full, 'utf8'), rel);
    parsed.push(p.ok ? { rel, docs: p.docs, problems: [] } : { rel, docs: [], problems: p.problems });
  }
  // two passes: a case may extend a case of any file
  const bases = basesOf(parsed.flatMap((f) => f.docs.map((d) => d.value)));
  for (const f of parsed) {
    const r = validateDocs(f.docs, f.rel, bases);
    cases.push(...r.cases);
    problems.push(...f.problems, ...r.problems);
  }
  problems.push(...duplicateProblems(cases));
  if (problems.length > 0) return { ok: false, dir, problems };
  return { ok: true, dir, cases: sortCases(cases) };
}
