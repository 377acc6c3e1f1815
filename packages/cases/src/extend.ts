/**
 * `extends`: a case file may take every field it does not give from another case (the family's base), so the
 * instances of a generator family differ only in what makes them distinct (their id, title, a `params`
 * entry, their calibration) and share one copy of the programs and the conformance corpus. Pure.
 *
 * Rules: a base may itself extend another case (a variant of a family: its own prompt, the family's
 * programs), up to MAX_EXTENDS_DEPTH links and never in a cycle; it is resolved first. `id` and
 * `calibration` are never inherited (evidence belongs to one question); `params` and `verify` merge one level
 * deep (the instance's keys win); every other field the instance gives replaces the base's. The merged case is the case: its revision is the one an
 * inline copy would have, so moving a case onto a base never makes its calibration stale.
 */

const NOT_INHERITED = new Set(['id', 'calibration', 'extends']);
const MERGED = new Set(['params', 'verify']);

type Doc = Record<string, unknown>;
const isDoc = (v: unknown): v is Doc => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The base's id an instance names, or null when the document extends nothing. */
export function extendsId(value: unknown): string | null {
  return isDoc(value) && typeof value['extends'] === 'string' ? value['extends'] : null;
}

/** The instance with the base's fields filled in (the instance's `extends` kept, so listings can name the base). */
export function extendCase(base: Doc, own: Doc): Doc {
  const out: Doc = {};
  for (const [k, v] of Object.entries(base)) if (!NOT_INHERITED.has(k)) out[k] = v;
  for (const [k, v] of Object.entries(own)) {
    out[k] = MERGED.has(k) && isDoc(v) && isDoc(out[k]) ? { ...(out[k] as Doc), ...v } : v;
  }
  return out;
}

export type ExtendOutcome = { ok: true; value: unknown } | { ok: false; message: string };

/** The longest chain of bases a case may stand on (instance → base → … ). */
export const MAX_EXTENDS_DEPTH = 4;

/** Resolves one document against the set's documents by id (`basesOf`), its base's own bases first. */
export function resolveExtends(value: unknown, bases: ReadonlyMap<string, Doc>): ExtendOutcome {
  const chain: string[] = [];
  const resolve = (doc: unknown): ExtendOutcome => {
    const id = extendsId(doc);
    if (id === null) return { ok: true, value: doc };
    if (chain.includes(id)) return { ok: false, message: `extends "${chain[0]}": a cycle (${[...chain, id].join(' → ')})` };
    chain.push(id);
    if (chain.length > MAX_EXTENDS_DEPTH) return { ok: false, message: `extends "${chain[0]}": more than ${MAX_EXTENDS_DEPTH} bases in a chain (${chain.join(' → ')})` };
    const base = bases.get(id);
    if (base === undefined) return { ok: false, message: chain.length === 1 ? `extends "${id}": no case with that id in the set` : `extends "${chain[0]}": its base chain names "${id}", no case with that id in the set` };
    const resolved = resolve(base);
    return resolved.ok ? { ok: true, value: extendCase(resolved.value as Doc, doc as Doc) } : resolved;
  };
  return resolve(value);
}

/** id → raw document, for every mapping with an id (the first of a duplicated id; duplicates are reported apart). */
export function basesOf(values: readonly unknown[]): Map<string, Doc> {
  const out = new Map<string, Doc>();
  for (const v of values) if (isDoc(v) && typeof v['id'] === 'string' && !out.has(v['id'])) out.set(v['id'], v);
  return out;
}

/** The base id when the instance gives no program of its own (its derive and verify programs are the base's). */
export function programsFrom(own: unknown): string | null {
  const id = extendsId(own);
  if (id === null) return null;
  const o = own as Doc;
  return 'derive' in o || (isDoc(o['verify']) && 'program' in o['verify']) ? null : id;
}
