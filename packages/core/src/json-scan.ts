/** Where a balanced JSON-like span starts and ends (both inclusive) in a text. */
export interface JsonSpan {
  start: number;
  end: number;
}

/**
 * Every top-level balanced `{…}` span (and `[…]` with `arrays`), left to right, string-aware (brackets
 * inside JSON strings, with backslash escapes, do not count). An opener that never closes (prose, a
 * truncated object) is skipped and the scan goes on after it, so one stray brace cannot hide a later
 * object; spans nested in an earlier one are not reported on their own. The scan is bounded, so a
 * pathological reply (`{{{{…` never closing) costs at most a few million steps.
 */
export function balancedJsonSpans(text: string, options: { arrays?: boolean } = {}): JsonSpan[] {
  const arrays = options.arrays ?? true;
  const isOpen = (ch: string | undefined) => ch === '{' || (arrays && ch === '[');
  const isClose = (ch: string | undefined) => ch === '}' || (arrays && ch === ']');
  const spans: JsonSpan[] = [];
  let budget = 2_000_000;
  for (let start = 0; start < text.length && budget > 0; start++) {
    if (!isOpen(text[start])) continue;
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length && budget-- > 0; i++) {
      const ch = text[i];
      if (inString) {
        if (ch === '\\') i++;
        else if (ch === '"') inString = false;
        continue;
      }
      if (ch === '"') inString = true;
      else if (isOpen(ch)) depth++;
      else if (isClose(ch)) {
        depth--;
        if (depth === 0) {
          spans.push({ start, end: i });
          start = i;
          break;
        }
      }
    }
  }
  return spans;
}
