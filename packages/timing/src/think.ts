import { THINK_CLOSE_TAGS as CLOSE_TAGS, THINK_OPEN_TAGS as OPEN_TAGS } from '@crucibleforge/core';

/** What one `content` delta turned into. */
export interface ThinkPiece {
  reasoning: string;
  content: string;
  /** A reasoning tag or reasoning text was consumed (the tag itself is a reasoning token). */
  reasoning_seen: boolean;
  /**
   * Set once, on the delta where an unopened closing tag showed that everything before it was
   * reasoning (templates that put `<think>` in the prompt): the caller moves its content so far
   * into reasoning.
   */
  reclassify: boolean;
}

function startsWithAny(text: string, tags: readonly string[]): string | undefined {
  return tags.find((tag) => text.startsWith(tag));
}

function isPrefixOfAny(text: string, tags: readonly string[]): boolean {
  return tags.some((tag) => tag.length > text.length && tag.startsWith(text));
}

/** Longest suffix of `text` that could be the beginning of one of `tags`. */
function tagPrefixSuffix(text: string, tags: readonly string[]): number {
  const max = Math.min(text.length, Math.max(...tags.map((t) => t.length)) - 1);
  for (let n = max; n > 0; n--) {
    if (isPrefixOfAny(text.slice(text.length - n), tags)) return n;
  }
  return 0;
}

function findFirst(text: string, tags: readonly string[]): { index: number; tag: string } | undefined {
  let best: { index: number; tag: string } | undefined;
  for (const tag of tags) {
    const index = text.indexOf(tag);
    if (index >= 0 && (best === undefined || index < best.index)) best = { index, tag };
  }
  return best;
}

type Cut = { closed: true; before: string; after: string } | { closed: false; before: string; carry: string };

/**
 * `text` up to its first closing tag and what follows the tag; with no closing tag yet, what can be
 * passed on now and the tail that might still become one (held back until the next delta).
 */
function untilClose(text: string): Cut {
  const found = findFirst(text, CLOSE_TAGS);
  if (found) return { closed: true, before: text.slice(0, found.index), after: text.slice(found.index + found.tag.length) };
  const keep = tagPrefixSuffix(text, CLOSE_TAGS);
  return { closed: false, before: text.slice(0, text.length - keep), carry: text.slice(text.length - keep) };
}

/**
 * Splits streamed `content` into reasoning and answer when a model writes its reasoning inline
 * (`<think>…</think>`), across delta boundaries. Content that does not start with an opening tag
 * passes through untouched (a closing tag without an opening one reclassifies what came before).
 */
export class ThinkSplitter {
  private state: 'start' | 'think' | 'content' = 'start';
  private carry = '';
  private opened = false;
  private reclassified = false;

  push(text: string): ThinkPiece {
    const piece: ThinkPiece = { reasoning: '', content: '', reasoning_seen: false, reclassify: false };
    let rest = this.carry + text;
    this.carry = '';
    while (rest.length > 0) {
      if (this.state === 'start') {
        const trimmed = rest.trimStart();
        const tag = startsWithAny(trimmed, OPEN_TAGS);
        if (tag) {
          this.state = 'think';
          this.opened = true;
          piece.reasoning_seen = true;
          rest = trimmed.slice(tag.length);
          continue;
        }
        if (trimmed.length === 0 || isPrefixOfAny(trimmed, OPEN_TAGS)) {
          this.carry = rest;
          return piece;
        }
        this.state = 'content';
        continue;
      }
      if (this.state === 'think') {
        const cut = untilClose(rest);
        piece.reasoning += cut.before;
        if (cut.closed) {
          piece.reasoning_seen = true;
          this.state = 'content';
          rest = cut.after;
          continue;
        }
        if (cut.before.length > 0) piece.reasoning_seen = true;
        this.carry = cut.carry;
        return piece;
      }
      // content
      if (!this.opened && !this.reclassified) {
        const cut = untilClose(rest);
        if (cut.closed) {
          this.reclassified = true;
          piece.reclassify = true;
          piece.reasoning = piece.content + cut.before;
          piece.reasoning_seen = true;
          piece.content = '';
          rest = cut.after;
          continue;
        }
        piece.content += cut.before;
        this.carry = cut.carry;
        return piece;
      }
      piece.content += rest;
      return piece;
    }
    return piece;
  }

  /** Whatever is still held back at the end of the stream. */
  flush(): ThinkPiece {
    const rest = this.carry;
    this.carry = '';
    const piece: ThinkPiece = { reasoning: '', content: '', reasoning_seen: false, reclassify: false };
    if (this.state === 'think') {
      piece.reasoning = rest;
      piece.reasoning_seen = rest.length > 0;
    } else piece.content = rest;
    return piece;
  }
}
