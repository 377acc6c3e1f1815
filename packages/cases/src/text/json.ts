import { balancedJsonSpans } from '@crucibleforge/core';
import type { TypeSpec } from '../schema/common';
import { fencedBlocks } from './code';
import { stripThinking } from '@crucibleforge/core';

export type JsonExtraction = { ok: true; value: unknown; whole: boolean } | { ok: false; reason: string };

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * The JSON value a reply gives: the whole reply, else a ```json (or untagged) fenced block, else the first
 * balanced object or array that parses. `whole` says the reply was nothing but the JSON (fence allowed).
 */
export function extractJson(content: string): JsonExtraction {
  const text = stripThinking(content);
  if (!text) return { ok: false, reason: 'empty reply' };
  const direct = tryParse(text);
  if (direct.ok) return { ok: true, value: direct.value, whole: true };
  const blocks = fencedBlocks(text).filter((b) => ['', 'json', 'jsonc', 'json5'].includes(b.lang));
  for (const b of blocks) {
    const parsed = tryParse(b.code.trim());
    if (parsed.ok) {
      const outside = text.replace(/(`{3,}|~{3,})[^\n]*\n[\s\S]*?\n\s*\1\s*/, '').trim();
      return { ok: true, value: parsed.value, whole: outside.length === 0 };
    }
  }
  for (const span of balancedJsonSpans(text)) {
    const parsed = tryParse(text.slice(span.start, span.end + 1));
    if (parsed.ok) return { ok: true, value: parsed.value, whole: false };
  }
  return { ok: false, reason: 'no JSON found in reply' };
}

export function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value;
}

/** null when the value has the type, else a short reason naming the path. */
export function checkType(value: unknown, spec: TypeSpec, path: string): string | null {
  if (typeof spec === 'string') {
    if (spec === 'any') return null;
    const actual = jsonTypeName(value);
    const ok = spec === actual || (spec === 'number' && actual === 'integer') || (spec === 'object' && actual === 'object');
    return ok ? null : `${path}: expected ${spec}, got ${actual}`;
  }
  if ('nullable' in spec) return value === null ? null : checkType(value, spec.nullable, path);
  if ('enum' in spec) {
    return spec.enum.some((e) => e === value) ? null : `${path}: expected one of ${JSON.stringify(spec.enum)}, got ${JSON.stringify(value)}`;
  }
  if ('array' in spec) {
    if (!Array.isArray(value)) return `${path}: expected array, got ${jsonTypeName(value)}`;
    for (let i = 0; i < value.length; i++) {
      const r = checkType(value[i], spec.array, `${path}[${i}]`);
      if (r) return r;
    }
    return null;
  }
  return checkKeys(value, spec.object, true, path);
}

/** Checks an object's keys and their types; with `exact`, no key may be missing or extra. */
export function checkKeys(value: unknown, keys: Record<string, TypeSpec>, exact: boolean, path = '$'): string | null {
  if (jsonTypeName(value) !== 'object') return `${path}: expected an object, got ${jsonTypeName(value)}`;
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(keys)) {
    if (!(key in obj)) return `${path}: missing key "${key}"`;
  }
  if (exact) {
    const extra = Object.keys(obj).filter((k) => !(k in keys));
    if (extra.length > 0) return `${path}: unexpected key "${extra[0]}"`;
  }
  for (const [key, spec] of Object.entries(keys)) {
    const r = checkType(obj[key], spec, path === '$' ? key : `${path}.${key}`);
    if (r) return r;
  }
  return null;
}

/** Reads `a.b[0].c` from a JSON value; `found: false` when any step is missing. */
export function getPath(value: unknown, path: string): { found: boolean; value: unknown } {
  const steps = path.match(/[^.[\]]+|\[\d+\]/g) ?? [];
  let cur: unknown = value;
  for (const step of steps) {
    if (step.startsWith('[')) {
      const idx = Number(step.slice(1, -1));
      if (!Array.isArray(cur) || idx >= cur.length) return { found: false, value: undefined };
      cur = cur[idx];
    } else {
      if (cur === null || typeof cur !== 'object' || Array.isArray(cur) || !(step in (cur as object))) {
        return { found: false, value: undefined };
      }
      cur = (cur as Record<string, unknown>)[step];
    }
  }
  return { found: true, value: cur };
}

/** Deep JSON equality (object key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => jsonEqual(x, bb[i]));
  }
  const ak = Object.keys(a as object);
  const bk = Object.keys(b as object);
  return (
    ak.length === bk.length &&
    ak.every((k) => k in (b as object) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/** What a JSON answer must be: exact keys and types, optional expected values by path, optionally nothing else. */
export interface JsonSpec {
  keys: Record<string, TypeSpec>;
  exact_keys?: boolean | undefined;
  values?: Record<string, unknown> | undefined;
  whole_reply?: boolean | undefined;
}

/**
 * Checks a reply against a JSON spec (the json grader, the json check and the agent's json part share it):
 * the JSON is extracted (fences and preamble stripped), keys and types checked, then each `values` path
 * compared by deep equality. null when it satisfies the spec, else the reason.
 */
export function jsonSpecProblem(spec: JsonSpec, content: string): string | null {
  const j = extractJson(content);
  if (!j.ok) return j.reason;
  if (spec.whole_reply && !j.whole) return 'text outside the JSON';
  const problem = checkKeys(j.value, spec.keys, spec.exact_keys ?? true);
  if (problem) return problem;
  for (const [path, want] of Object.entries(spec.values ?? {})) {
    const got = getPath(j.value, path);
    if (!got.found) return `${path}: missing`;
    if (!jsonEqual(got.value, want)) return `${path}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got.value)?.slice(0, 60)}`;
  }
  return null;
}
