function normalise(id: string): string {
  return id.trim().toLowerCase();
}

/** `vendor/name:tag` → `name:tag`; a GGUF path → its file name without `.gguf`. */
function baseName(id: string): string {
  const last = id.split(/[\\/]/).pop() ?? id;
  return last.replace(/\.gguf$/i, '');
}

const DATED_SUFFIX = /^-(\d{4}-\d{2}-\d{2}|\d{8}|\d{4})$/;

/**
 * Whether a response's `model` names the model that was requested. Lenient where servers are known
 * to decorate ids: case, a `vendor/` prefix or path, a `.gguf` suffix, an Ollama `:latest` tag and a
 * dated snapshot suffix (`gpt-4o` → `gpt-4o-2024-08-06`). Anything else is a different model.
 */
export function sameModel(requested: string, served: string): boolean {
  const a = normalise(requested);
  const b = normalise(served);
  if (a === b) return true;
  const variants = (id: string) => {
    const base = baseName(id);
    return [id, base, id.replace(/:latest$/, ''), base.replace(/:latest$/, '')];
  };
  const as = variants(a);
  const bs = variants(b);
  for (const x of as) {
    for (const y of bs) {
      if (x === y) return true;
      if (y.startsWith(x) && DATED_SUFFIX.test(y.slice(x.length))) return true;
      if (x.startsWith(y) && DATED_SUFFIX.test(x.slice(y.length))) return true;
    }
  }
  return false;
}
