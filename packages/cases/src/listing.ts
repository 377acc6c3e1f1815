import { existsSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { assertKnownIds } from './profiles';
import type { PlannedCase } from './planned';
import type { LoadedCase } from './schema/case';

/** `cases list --json`: one object per case. */
export function caseListRows(cases: readonly LoadedCase[]) {
  return cases.map((c) => ({ id: c.def.id, category: c.def.category, difficulty: c.def.difficulty, seeded: c.seeded, title: c.def.title, tags: c.def.tags ?? [], revision: c.revision }));
}

/** `cases list`: a line per case (id, category, difficulty, seeded, title) and the counts by category and difficulty. */
export function caseListText(cases: readonly LoadedCase[]): string {
  const width = Math.max(2, ...cases.map((c) => c.def.id.length));
  const lines = cases.map((c) => `${c.def.id.padEnd(width)}  ${c.def.category.padEnd(9)}  ${c.def.difficulty.padEnd(6)}  ${c.seeded ? 'seeded' : '      '}  ${c.def.title}`);
  const count = (pick: (c: LoadedCase) => string) => {
    const m = new Map<string, number>();
    for (const c of cases) m.set(pick(c), (m.get(pick(c)) ?? 0) + 1);
    return [...m].map(([k, n]) => `${k} ${n}`).join(', ');
  };
  const seeded = cases.filter((c) => c.seeded).length;
  return `${[...lines, '', `${cases.length} cases (${count((c) => c.def.category) || 'none'}); ${count((c) => c.def.difficulty) || '-'}; ${seeded} seeded`].join('\n')}\n`;
}

/** bench-llm's order of the ability tests: code, logic, JSON, instructions, summary (others after, by id); agent tests last. */
const SEED_ORDER = ['coding', 'reasoning', 'json', 'instruct', 'prose'];

function seedRank(c: Pick<PlannedCase, 'category' | 'grader'>): number {
  if (c.category === 'agent') return SEED_ORDER.length + 1;
  const rank = SEED_ORDER.indexOf(c.category === 'instruct' && c.grader === 'json' ? 'json' : c.category);
  return rank === -1 ? SEED_ORDER.length : rank;
}

/** Planned cases in bench-llm's suite order (a new array). */
export function inSeedOrder<T extends Pick<PlannedCase, 'id' | 'category' | 'grader'>>(cases: readonly T[]): T[] {
  return [...cases].sort((a, b) => seedRank(a) - seedRank(b) || a.id.localeCompare(b.id));
}

/**
 * `cases verify ID|FILE|FOLDER …`: the cases (of `cases`, a selection of `all`) named by id, or by a file or
 * folder relative to `cwd` or the cases dir `dir`. No filter keeps them all; an unknown id throws CASES_UNKNOWN_CASE.
 */
export function filterCases(cwd: string, dir: string, all: LoadedCase[], cases: LoadedCase[], filters: string[]): LoadedCase[] {
  if (filters.length === 0) return cases;
  const ids = new Set(all.map((c) => c.def.id));
  const picked = new Set<LoadedCase>();
  const unknownIds: string[] = [];
  for (const f of filters) {
    if (ids.has(f)) {
      for (const c of cases) if (c.def.id === f) picked.add(c);
      continue;
    }
    const candidates = [resolve(cwd, f), resolve(dir, f)].map((p) => p.replace(/[\\/]+$/, ''));
    const hits = cases.filter((c) => {
      const file = join(dir, c.file);
      return candidates.some((p) => file === p || file.startsWith(p + sep));
    });
    if (hits.length === 0 && !candidates.some((p) => existsSync(p))) unknownIds.push(f);
    for (const c of hits) picked.add(c);
  }
  if (unknownIds.length > 0) assertKnownIds(unknownIds, all, 'cases verify');
  return cases.filter((c) => picked.has(c));
}
