import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One workspace package as the graph check sees it. */
export interface WorkspacePackage {
  /** As AGENTS.md names it: `core`, `timing`, …, `apps/gui`, `apps/cli`. */
  node: string;
  name: string;
  dir: string;
  dependencies: string[];
  devDependencies: string[];
  /** `@crucibleforge/*` imports of the non-test sources, and of the tests, with the file of each. */
  imports: { spec: string; file: string; test: boolean }[];
}

const SCOPE = '@crucibleforge/';

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (/\.tsx?$/.test(entry)) out.push(full);
  }
  return out;
}

/** Every package under packages/ and apps/ with its workspace dependencies and imports. */
export function workspacePackages(root: string): WorkspacePackage[] {
  const out: WorkspacePackage[] = [];
  for (const group of ['packages', 'apps']) {
    for (const entry of readdirSync(join(root, group)).sort()) {
      const dir = join(root, group, entry);
      let pkg: { name: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
      try {
        pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      } catch {
        continue;
      }
      const workspace = (deps: Record<string, string> | undefined) => Object.keys(deps ?? {}).filter((d) => d.startsWith(SCOPE));
      const imports = sourceFiles(join(dir, 'src')).flatMap((file) => {
        const text = readFileSync(file, 'utf8');
        const test = /\.test\.ts$|[\\/]test-support\.ts$/.test(file);
        return [...text.matchAll(/(?:from|import\()\s*'(@crucibleforge\/[a-z-]+)/g)].map((m) => ({ spec: m[1]!, file: relative(root, file), test }));
      });
      out.push({ node: group === 'apps' ? `apps/${entry}` : entry, name: pkg.name, dir, dependencies: workspace(pkg.dependencies), devDependencies: workspace(pkg.devDependencies), imports });
    }
  }
  return out;
}

/** The graph AGENTS.md draws: per node, what it may import (`a → b, c`; names that are not workspace packages, like openai, are ignored). */
export function documentedGraph(agentsMd: string, nodes: readonly string[]): Map<string, Set<string>> {
  const block = /## Package graph[\s\S]*?```\n([\s\S]*?)```/.exec(agentsMd)?.[1];
  if (!block) throw new Error('AGENTS.md has no "## Package graph" code block');
  const graph = new Map<string, Set<string>>();
  for (const line of block.split('\n')) {
    const m = /^(\S+)\s+→\s+(.*?)(?:\s{2,}.*)?$/.exec(line.trimEnd());
    if (!m) continue;
    graph.set(m[1]!, new Set(m[2]!.split(',').map((s) => s.trim()).filter((s) => nodes.includes(s))));
  }
  return graph;
}

/** A dependency cycle among the packages (runtime and test dependencies together), or null. */
export function findCycle(edges: Map<string, readonly string[]>): string[] | null {
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'visiting') return [...path.slice(path.indexOf(node)), node];
    state.set(node, 'visiting');
    path.push(node);
    for (const next of edges.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of edges.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}
