/**
 * Inline reasoning tags seen in the wild (integrations §4.1): what a model writes around its thinking when
 * it streams it in the content channel. The timing client splits them out of a stream; graders and the
 * judge strip what leaked into a finished reply.
 */
export const THINK_OPEN_TAGS: readonly string[] = ['<think>', '<thinking>', '<|thinking|>'];
export const THINK_CLOSE_TAGS: readonly string[] = ['</think>', '</thinking>', '<|/thinking|>', '</|thinking|>'];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const anyOf = (tags: readonly string[]) => new RegExp(tags.map(escape).join('|'), 'i');
const PAIRS: [RegExp, RegExp][] = [
  [anyOf(THINK_OPEN_TAGS.filter((t) => !t.includes('|'))), anyOf(THINK_CLOSE_TAGS.filter((t) => !t.includes('|')))],
  [anyOf(THINK_OPEN_TAGS.filter((t) => t.includes('|'))), anyOf(THINK_CLOSE_TAGS.filter((t) => t.includes('|')))],
];

/**
 * Removes inline reasoning that leaked into the content channel (`<think>…</think>` and friends, any case).
 * An unclosed opener drops the rest; a stray closer drops everything before it (the text before a lone
 * `</think>` is reasoning whose opener the server ate). The result is trimmed.
 */
export function stripThinking(text: string): string {
  let out = text;
  for (const [open, close] of PAIRS) {
    for (;;) {
      const o = open.exec(out);
      const c = close.exec(out);
      if (c && (!o || c.index < o.index)) {
        out = out.slice(c.index + c[0].length);
        continue;
      }
      if (!o) break;
      const rest = out.slice(o.index + o[0].length);
      const c2 = close.exec(rest);
      out = c2 ? out.slice(0, o.index) + rest.slice(c2.index + c2[0].length) : out.slice(0, o.index);
    }
  }
  return out.trim();
}
