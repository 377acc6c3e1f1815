import { CATEGORIES } from '@crucibleforge/core';
import { applyProfile, loadCaseSet } from '@crucibleforge/cases';
import type { CaseDriver } from '@crucibleforge/runner';

export interface ProfileInfo {
  name: string;
  description: string | null;
  cases: number;
  /** Cases per category in this profile. */
  categories: Record<string, number>;
  hard: number;
}

/** Where the new-run page learns which profiles exist and what they hold. */
export interface CaseCatalog {
  profiles(): Promise<ProfileInfo[]>;
}

function info(name: string, description: string | null, cases: { category: string; difficulty: string }[]): ProfileInfo {
  const categories: Record<string, number> = {};
  for (const category of CATEGORIES) {
    const n = cases.filter((c) => c.category === category).length;
    if (n > 0) categories[category] = n;
  }
  return { name, description, cases: cases.length, categories, hard: cases.filter((c) => c.difficulty === 'hard').length };
}

/** The default catalog: the case set's own profiles (`<casesDir>/profiles/*.yaml`) applied to its cases. */
export function casesCatalog(casesDir: string): CaseCatalog {
  return {
    async profiles() {
      const set = await loadCaseSet(casesDir);
      return set.profiles.map((p) => info(p.name, p.description ?? null, applyProfile(p, set.cases).map((c) => ({ category: c.def.category, difficulty: c.def.difficulty }))));
    },
  };
}

/**
 * For a custom case driver (a harness of your own): asks the driver to plan each profile name and keeps the
 * ones it knows, so the counts are exactly what a run would get.
 */
export function driverCatalog(driver: CaseDriver, names: readonly string[]): CaseCatalog {
  return {
    async profiles() {
      const found: ProfileInfo[] = [];
      for (const name of names) {
        const cases = await driver.plan({ profile: name, categories: null }).catch(() => null);
        if (cases) found.push(info(name, null, cases));
      }
      return found;
    },
  };
}

/** The categories in their fixed order. */
export function categoryList(): string[] {
  return [...CATEGORIES];
}
