import { escapeRegExp } from '../text/normalize';

/** Where a reply states its final answer, and how (the conventions models really use). */
export interface FinalAnswer {
  /** The answer text: the rest of the marker's line (or the next non-blank line when the marker ends its line). */
  value: string;
  /** Everything from the value's start to the end of the reply (multi-line answers: lists, mappings). */
  rest: string;
  source: 'label' | 'boxed' | 'phrase' | 'bold' | 'bare';
}

interface Marker {
  /** Start of the value in the text. */
  at: number;
  /** End of the marker's own line (the value runs to here unless the line is empty). */
  lineEnd: number;
  source: FinalAnswer['source'];
  /** For \boxed{…}: the braced content. */
  inner?: string;
}

/** The balanced `{…}` content starting at `open` (the index of `{`), or null when unbalanced. */
export function bracedAt(text: string, open: number): { inner: string; end: number } | null {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}') {
      depth--;
      if (depth === 0) return { inner: text.slice(open + 1, i), end: i + 1 };
    }
  }
  return null;
}

const lineEndOf = (text: string, at: number) => {
  const nl = text.indexOf('\n', at);
  return nl < 0 ? text.length : nl;
};

function labelMarkers(text: string, label: string): Marker[] {
  const l = escapeRegExp(label).replace(/\s+/g, '[ \\t]+');
  const out: Marker[] = [];
  // at a line start, any case, markdown decoration and "final" allowed: "**Final Answer:** 42", "> answer = 7"
  const lineStart = new RegExp(String.raw`(?:^|\n)[ \t>*_#-]*(?:final[ \t]+)?${l}[ \t]*(?:\([^)\n]{0,30}\))?[*_ \t]*[:=][*_]*`, 'gi');
  // a heading or bold line that is only the label: "## Final answer", "**Answer**" (the value is on the next line)
  const heading = new RegExp(String.raw`(?:^|\n)[ \t>*_#]*(?:final[ \t]+)?${l}[*_# \t]*:?[*_]*[ \t]*(?=\n)`, 'gi');
  // mid-line, written exactly as the label is given: "…on reflection, Answer: 327"
  const midLine = new RegExp(String.raw`(?<![\p{L}\p{N}_])(?:\*\*)?(?:[Ff]inal\s+)?${l}(?:\*\*)?:(?:\*\*)?`, 'gu');
  for (const re of [lineStart, heading, midLine]) {
    for (const m of text.matchAll(re)) {
      const at = m.index + m[0].length;
      out.push({ at, lineEnd: lineEndOf(text, at), source: 'label' });
    }
  }
  return out;
}

function boxedMarkers(text: string): Marker[] {
  const out: Marker[] = [];
  for (const m of text.matchAll(/\\boxed\s*\{/g)) {
    const open = m.index + m[0].length - 1;
    const b = bracedAt(text, open);
    if (b) out.push({ at: m.index, lineEnd: lineEndOf(text, m.index), source: 'boxed', inner: b.inner });
  }
  return out;
}

function phraseMarkers(text: string, final: boolean): Marker[] {
  const re = final ? /\b(?:my\s+|the\s+)?final\s+answer\s+(?:is|would\s+be)\s*:?\s*/gi : /\b(?:so\s+|thus\s+|therefore\s+)?the\s+answer\s+is\s*:?\s*/gi;
  return [...text.matchAll(re)].map((m) => {
    const at = m.index + m[0].length;
    return { at, lineEnd: lineEndOf(text, at), source: 'phrase' as const };
  });
}

function valueOf(text: string, m: Marker): FinalAnswer {
  if (m.inner !== undefined) return { value: m.inner.trim(), rest: text.slice(m.at), source: m.source };
  const own = text.slice(m.at, m.lineEnd).replace(/^[\s*_]+/, '').trim();
  if (own.replace(/[*_\s]/g, '') !== '' || m.lineEnd >= text.length) return { value: own, rest: text.slice(m.at).replace(/^[ \t*_]+/, ''), source: m.source };
  // the marker ends its line: the value is the next non-blank line, the rest is what follows
  const after = text.slice(m.lineEnd + 1);
  const next = after.split('\n').find((line) => line.trim() !== '') ?? '';
  return { value: next.trim(), rest: after.replace(/^\s*\n/, ''), source: m.source };
}

/** The last marker by position; a \boxed{} inside a labelled value counts as that label. */
function last(markers: Marker[]): Marker | null {
  const sorted = [...markers].sort((a, b) => a.at - b.at);
  let best: Marker | null = null;
  for (const m of sorted) {
    if (best && m.source === 'boxed' && best.source === 'label' && m.at >= best.at && m.at <= best.lineEnd) continue;
    best = m;
  }
  return best;
}

/** A final line in bold (`**327**`, `The total is **327**.`): its last bold span. */
function boldFinal(text: string): FinalAnswer | null {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const lastLine = lines[lines.length - 1] ?? '';
  const spans = [...lastLine.matchAll(/\*\*([^*\n]+)\*\*|__([^_\n]+)__/g)];
  const span = spans[spans.length - 1];
  if (!span) return null;
  const value = (span[1] ?? span[2]!).trim();
  return { value, rest: value, source: 'bold' };
}

/**
 * The final answer of a reply. Explicit markers first — a `label:` (any case at a line start, with
 * markdown and "Final"; exactly as given mid-line), a heading that is only the label, `\boxed{…}` — and the
 * LAST of them wins (a self-correction replaces the earlier answer). Without one: "the final answer is …",
 * then "the answer is …", then a bold final line, then a one-line reply as its own answer. Null when none.
 */
export function finalAnswer(text: string, label = 'Answer'): FinalAnswer | null {
  const explicit = last([...labelMarkers(text, label), ...boxedMarkers(text)]);
  if (explicit) return valueOf(text, explicit);
  const phrase = last(phraseMarkers(text, true)) ?? last(phraseMarkers(text, false));
  if (phrase) return valueOf(text, phrase);
  const bold = boldFinal(text);
  if (bold) return bold;
  const trimmed = text.trim();
  return trimmed && !trimmed.includes('\n') ? { value: trimmed, rest: trimmed, source: 'bare' } : null;
}

/** Every explicit labelled or boxed value, in order (for reasons and tests). */
export function explicitAnswers(text: string, label = 'Answer'): string[] {
  const markers = [...labelMarkers(text, label), ...boxedMarkers(text)].sort((a, b) => a.at - b.at);
  const kept: Marker[] = [];
  for (const m of markers) {
    const prev = kept[kept.length - 1];
    if (prev && m.source === 'boxed' && prev.source === 'label' && m.at <= prev.lineEnd) continue;
    if (prev && prev.at === m.at) continue;
    kept.push(m);
  }
  return kept.map((m) => valueOf(text, m).value);
}
