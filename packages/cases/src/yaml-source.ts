import { isMap, isNode, isScalar, LineCounter, parseAllDocuments, type Document } from 'yaml';
import type { z } from 'zod';

/** One problem in a file, with where it is. Printed as `file:line:column: path: message`. */
export interface SourceProblem {
  file: string;
  line?: number;
  column?: number;
  /** Path inside the document: `grader.tests[2].expect`. */
  path?: string;
  message: string;
}

export function formatProblem(p: SourceProblem): string {
  const at = p.line === undefined ? p.file : `${p.file}:${p.line}:${p.column ?? 1}`;
  return `${at}: ${p.path ? `${p.path}: ` : ''}${p.message}`;
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

export interface YamlDoc {
  value: unknown;
  doc: Document;
  lines: LineCounter;
  file: string;
}

/** Parses every document of a YAML file; syntax errors come back as problems with line and column. */
export function parseYamlDocuments(text: string, file: string): { ok: true; docs: YamlDoc[] } | { ok: false; problems: SourceProblem[] } {
  const lines = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lines, prettyErrors: false });
  const list = Array.isArray(docs) ? docs : [];
  const problems: SourceProblem[] = [];
  for (const doc of list) {
    for (const err of doc.errors) {
      const pos = lines.linePos(err.pos[0]);
      problems.push({ file, line: pos.line, column: pos.col, message: `YAML: ${err.message.split('\n')[0]}` });
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    docs: list.filter((d) => d.contents !== null).map((doc) => ({ value: doc.toJS({ maxAliasCount: 100 }), doc, lines, file })),
  };
}

/** Line and column of the node at `path` (or of the deepest existing parent; a key named `key` if given). */
export function positionOf(y: YamlDoc, path: readonly PropertyKey[], key?: string): { line: number; column: number } {
  let keys = path.filter((k): k is string | number => typeof k === 'string' || typeof k === 'number');
  for (;;) {
    const node = keys.length === 0 ? y.doc.contents : y.doc.getIn(keys, true);
    if (isNode(node) && node.range) {
      if (key !== undefined && isMap(node)) {
        const pair = node.items.find((p) => isNode(p.key) && (p.key as { value?: unknown }).value === key);
        if (pair && isNode(pair.key) && pair.key.range) {
          const pos = y.lines.linePos(pair.key.range[0]);
          return { line: pos.line, column: pos.col };
        }
      }
      const pos = y.lines.linePos(node.range[0]);
      return { line: pos.line, column: pos.col };
    }
    if (keys.length === 0) return { line: 1, column: 1 };
    keys = keys.slice(0, -1);
  }
}

/** Turns zod issues into located problems (a union's most specific branch error is used). */
export function zodProblems(y: YamlDoc, issues: z.core.$ZodIssue[], prefix: readonly PropertyKey[] = []): SourceProblem[] {
  const out: SourceProblem[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && 'errors' in issue && issue.errors.length > 0) {
      // pick the branch that got furthest (fewest issues, deepest path)
      const best = [...issue.errors].sort((a, b) => a.length - b.length || depth(b) - depth(a))[0]!;
      out.push(...zodProblems(y, best, path));
      continue;
    }
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const hint = flowCommaHint(y, path, key);
        out.push({ file: y.file, ...positionOf(y, path, key), path: formatPath([...path, key]), message: hint ? `unknown field; ${hint}` : 'unknown field' });
      }
      continue;
    }
    out.push({ file: y.file, ...positionOf(y, path), path: formatPath(path), message: issue.message });
  }
  return out;
}

function depth(issues: z.core.$ZodIssue[]): number {
  return Math.max(0, ...issues.map((i) => i.path.length));
}

/**
 * A key with no value inside a flow map `{ … }` is usually the tail of an unquoted value that contained a
 * comma: `{ check: regex, label: times, and boil }` parses as label "times" plus a key "and boil". Returns a
 * hint that says so (with the quoted fix when the previous pair is a plain scalar), or null.
 */
export function flowCommaHint(y: YamlDoc, path: readonly PropertyKey[], key: string): string | null {
  const keys = path.filter((k): k is string | number => typeof k === 'string' || typeof k === 'number');
  const node = keys.length === 0 ? y.doc.contents : y.doc.getIn(keys, true);
  if (!isMap(node) || !node.flow) return null;
  const index = node.items.findIndex((p) => isScalar(p.key) && p.key.value === key);
  const pair = node.items[index];
  if (!pair || pair.value !== null) return null;
  const hint = 'inside { … } a comma ends a value, so quote a value that contains a comma';
  const prev = node.items[index - 1];
  if (prev && isScalar(prev.key) && isScalar(prev.value) && typeof prev.value.value === 'string') {
    const joined = `${prev.value.value}, ${key}`.replace(/"/g, '\\"');
    return `${hint}: ${String(prev.key.value)}: "${joined}"`;
  }
  return hint;
}
