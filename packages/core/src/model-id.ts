/**
 * Model identity: when two model ids name the same model. One rule for the wrong-model guard, the timing
 * client's `wrong_model` flag, the speed benchmark's metadata lookup and the judge's self-judging guard.
 */

const normalise = (id: string) => id.trim().toLowerCase();

/** `vendor/name:tag` → `name:tag`; a GGUF path → its file name without `.gguf`. */
function baseName(id: string): string {
  const last = id.split(/[\\/]/).pop() ?? id;
  return last.replace(/\.gguf$/i, '');
}

const DATED_SUFFIX = /^-(\d{4}-\d{2}-\d{2}|\d{8}|\d{4})$/;

function variants(id: string): string[] {
  const base = baseName(id);
  return [...new Set([id, base, id.replace(/:latest$/, ''), base.replace(/:latest$/, '')])].filter((v) => v !== '');
}

/**
 * Whether two ids name the same model. Lenient where servers and providers are known to decorate ids:
 * case and surrounding spaces, a `vendor/` prefix or path (`qwen/qwen3-32b` on one provider is `qwen3-32b`
 * on another), a `.gguf` suffix, an Ollama `:latest` tag and a dated snapshot suffix (`gpt-4o` →
 * `gpt-4o-2024-08-06`). Anything else is a different model (`qwen3-32b` is not `qwen3-32b-instruct`).
 */
export function sameModel(a: string, b: string): boolean {
  const x = normalise(a);
  const y = normalise(b);
  if (x === '' || y === '') return false;
  if (x === y) return true;
  for (const p of variants(x)) {
    for (const q of variants(y)) {
      if (p === q) return true;
      if (q.startsWith(p) && DATED_SUFFIX.test(q.slice(p.length))) return true;
      if (p.startsWith(q) && DATED_SUFFIX.test(p.slice(q.length))) return true;
    }
  }
  return false;
}

/** How strictly a served model id must match the requested one: `prefix` also allows an aliased longer id. */
export type ModelMatchMode = 'strict' | 'prefix';

const lastSegment = (id: string) => (normalise(id).split('/').pop() ?? '').replace(/:latest$/, '');

/**
 * Whether the model an endpoint says answered is the one requested. `strict` allows only the decorations of
 * {@link sameModel}; `prefix` (hosted APIs alias ids: `vendor/x` → `vendor/x-v2`) also allows a last path
 * segment that starts with the other's.
 */
export function servedModelMatches(mode: ModelMatchMode, requested: string, served: string): boolean {
  if (sameModel(requested, served)) return true;
  if (mode === 'strict') return false;
  const a = lastSegment(requested);
  const b = lastSegment(served);
  return a !== '' && b !== '' && (b.startsWith(a) || a.startsWith(b));
}
