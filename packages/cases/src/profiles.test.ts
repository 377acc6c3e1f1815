import { describe, expect, it } from 'vitest';
import { parseCaseFile } from './loader';
import { applyProfile, findProfile, parseProfile } from './profiles';
import type { LoadedCase } from './schema/case';

function fakeCase(id: string, category: string, difficulty: string, tags: string[], grader = 'type: number'): LoadedCase {
  const text = `id: ${id}\ntitle: ${id}\ncategory: ${category}\ndifficulty: ${difficulty}\ntags: [${tags.join(', ')}]\nwhy_hard: because it is built to be hard\nprompt: q\nmax_tokens: 100\ngrader:\n  ${grader}\nreference:\n  answer: "1"\n  facts: [one]\n`;
  const r = parseCaseFile(text, `${category}/${id}.yaml`);
  if (!r.cases[0]) throw new Error(JSON.stringify(r.problems));
  return r.cases[0];
}

const cases = [
  fakeCase('math-a', 'math', 'medium', ['quick']),
  fakeCase('math-b', 'math', 'easy', []),
  fakeCase('prose-c', 'prose', 'medium', ['quick'], 'type: judge'),
  fakeCase('reasoning-d', 'reasoning', 'medium', ['slow']),
];

const profile = (text: string) => {
  const r = parseProfile(text, 'profiles/p.yaml');
  if (!r.profile) throw new Error(JSON.stringify(r.problems));
  return r.profile;
};

describe('profiles', () => {
  it('unions selectors, ANDs fields inside one, then excludes', () => {
    const p = profile('name: p\ninclude:\n  - categories: [math]\n    difficulties: [medium]\n  - tags: [quick]\n  - ids: [reasoning-d]\nexclude:\n  - tags: [slow]\n');
    expect(applyProfile(p, cases).map((c) => c.def.id)).toEqual(['math-a', 'prose-c']);
  });
  it('selects judged or objective cases, or all', () => {
    expect(applyProfile(profile('name: p\ninclude: [{judged: true}]\n'), cases).map((c) => c.def.id)).toEqual(['prose-c']);
    expect(applyProfile(profile('name: p\ninclude: [{all: true}]\nexclude: [{judged: true}]\n'), cases)).toHaveLength(3);
  });
  it('unknown ids in a profile name the closest valid ids', () => {
    expect(() => applyProfile(profile('name: p\ninclude: [{ids: [math-aa]}]\n'), cases)).toThrow(/unknown case id "math-aa" \(closest: math-a, math-b/);
  });
  it('unknown profile lists the valid names', () => {
    expect(() => findProfile([profile('name: p\ninclude: [{all: true}]\n')], 'standrd')).toThrow('unknown profile "standrd"; valid profiles: p');
  });
  it('rejects an empty selector, unknown keys and a name that differs from the file', () => {
    expect(parseProfile('name: p\ninclude: [{}]\n', 'profiles/p.yaml').problems[0]!.message).toMatch(/empty selector/);
    expect(parseProfile('name: p\ninclude: [{all: true, tag: [x]}]\n', 'profiles/p.yaml').problems[0]).toMatchObject({ path: 'include[0].tag', line: 2 });
    expect(parseProfile('name: q\ninclude: [{all: true}]\n', 'profiles/p.yaml').problems[0]!.message).toBe('"q" differs from the file name "p"');
  });
});
