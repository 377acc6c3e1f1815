import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentedGraph, findCycle, workspacePackages } from './graph';
import { REPO_ROOT } from './paths';

/** What any package's tests may use besides its graph edges (devDependencies only): test fixtures. */
const TEST_ONLY = new Set(['sim-endpoint', 'testkit', 'demo']);

const packages = workspacePackages(REPO_ROOT);
const nodeOf = new Map(packages.map((p) => [p.name, p.node]));
const graph = documentedGraph(readFileSync(join(REPO_ROOT, 'AGENTS.md'), 'utf8'), packages.map((p) => p.node));

describe('the package graph in AGENTS.md', () => {
  it('names every workspace package', () => {
    expect(packages.map((p) => p.node).filter((n) => !graph.has(n))).toEqual([]);
    expect([...graph.keys()].filter((n) => !packages.some((p) => p.node === n))).toEqual([]);
  });

  it('allows every dependency in package.json, and every import of the sources', () => {
    const problems: string[] = [];
    for (const p of packages) {
      const allowed = graph.get(p.node) ?? new Set<string>();
      for (const dep of p.dependencies) if (!allowed.has(nodeOf.get(dep) ?? dep)) problems.push(`${p.node}: dependency ${dep} is not an edge of the graph`);
      for (const dep of p.devDependencies) {
        const node = nodeOf.get(dep) ?? dep;
        if (!allowed.has(node) && !TEST_ONLY.has(node)) problems.push(`${p.node}: devDependency ${dep} is neither an edge nor a test fixture`);
      }
      for (const i of p.imports) {
        const node = nodeOf.get(i.spec) ?? i.spec;
        if (i.spec === p.name) continue;
        const declared = p.dependencies.includes(i.spec) || (i.test && p.devDependencies.includes(i.spec));
        if (!declared) problems.push(`${i.file}: imports ${i.spec}, which ${p.node}'s package.json does not declare${i.test ? '' : ' as a dependency'}`);
        else if (!i.test && !allowed.has(node)) problems.push(`${i.file}: imports ${i.spec}, not an edge of the graph`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('has no cycle, counting test dependencies too', () => {
    const edges = new Map(packages.map((p) => [p.node, [...p.dependencies, ...p.devDependencies].map((d) => nodeOf.get(d) ?? d)]));
    expect(findCycle(edges)).toBeNull();
  });

  it('the check itself catches an edge the graph does not allow and a cycle', () => {
    const drawn = documentedGraph('## Package graph\n```\ncore    → nothing\nreport  → core, zod   boards\n```\n', ['core', 'report']);
    expect(drawn.get('report')).toEqual(new Set(['core']));
    expect(drawn.get('core')).toEqual(new Set());
    expect(findCycle(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']]]))).toEqual(['a', 'b', 'c', 'a']);
    expect(findCycle(new Map([['a', ['b']], ['b', []]]))).toBeNull();
  });
});
