import type { Language } from '../schema/common';
import { stripThinking } from '@crucibleforge/core';
import { escapeRegExp } from './normalize';

export interface FencedBlock {
  /** The info string's first word, lowercased ('' when none). */
  lang: string;
  code: string;
  /** false when the reply ended inside this block (no closing fence). */
  closed: boolean;
}

const LANG_TAGS: Record<Language, string[]> = {
  python: ['python', 'py', 'python3', 'py3'],
  node: ['javascript', 'js', 'node', 'nodejs', 'mjs', 'cjs', 'jsx'],
};

/** Every fenced block (``` or ~~~, three or more), in order; an unclosed last block is included. */
export function fencedBlocks(text: string): FencedBlock[] {
  const lines = text.split('\n');
  const blocks: FencedBlock[] = [];
  let open: { fence: string; lang: string; body: string[] } | null = null;
  for (const line of lines) {
    if (!open) {
      const m = /^\s{0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/.exec(line);
      if (m) open = { fence: m[1]!, lang: (m[2] ?? '').toLowerCase(), body: [] };
      continue;
    }
    const close = new RegExp(`^\\s{0,3}${escapeRegExp(open.fence[0]!)}{${open.fence.length},}\\s*$`);
    if (close.test(line)) {
      blocks.push({ lang: open.lang, code: open.body.join('\n'), closed: true });
      open = null;
    } else {
      open.body.push(line);
    }
  }
  if (open) blocks.push({ lang: open.lang, code: open.body.join('\n'), closed: false });
  return blocks;
}

/** A regex that finds a definition of `name` in the language. */
export function definitionPattern(language: Language, name: string): RegExp {
  const n = escapeRegExp(name);
  return language === 'python'
    ? new RegExp(`^\\s*(?:async\\s+)?(?:def|class)\\s+${n}\\b`, 'm')
    : new RegExp(
        `(?:^|[\\s;])(?:export\\s+(?:default\\s+)?)?(?:(?:async\\s+)?function\\s*\\*?\\s*${n}\\b|class\\s+${n}\\b|(?:const|let|var)\\s+${n}\\s*=)|(?:module\\.)?exports\\.${n}\\s*=|module\\.exports\\s*=\\s*\\{[^}]*\\b${n}\\b`,
        'm',
      );
}

const DEFINES_ANYTHING: Record<Language, RegExp> = {
  python: /^(?:async\s+)?(?:def|class)\s+\w+|^(?:import|from)\s+\w+/m,
  node: /^(?:export\s+)?(?:(?:async\s+)?function\b|class\s+\w+|(?:const|let|var)\s+\w+\s*=)/m,
};

export type CodeExtraction = { ok: true; code: string; note: string } | { ok: false; reason: string };

/**
 * Finds the model's program: the fenced block in the expected language (or untagged) that defines the
 * required name — the last such block when there are several (models often correct themselves) — with
 * earlier helper-only blocks of the same language put in front. Without fences, the text from the first
 * line that starts code. Preamble and trailing prose never reach the interpreter.
 */
export function extractCode(content: string, language: Language, name: string): CodeExtraction {
  const text = stripThinking(content);
  if (text.length === 0) return { ok: false, reason: 'no code in response (empty reply)' };
  const defines = definitionPattern(language, name);
  const blocks = fencedBlocks(text).filter((b) => b.lang === '' || LANG_TAGS[language].includes(b.lang));
  if (blocks.length > 0) {
    const defining = blocks.map((b, i) => ({ b, i })).filter(({ b }) => defines.test(b.code));
    if (defining.length === 0) {
      return { ok: false, reason: `no code block defines ${name}` };
    }
    const chosen = defining[defining.length - 1]!;
    const helpers = blocks
      .slice(0, chosen.i)
      .filter((b) => !defines.test(b.code) && DEFINES_ANYTHING[language].test(b.code))
      .map((b) => b.code);
    const code = [...helpers, chosen.b.code].join('\n\n');
    const notes = [
      defining.length > 1 ? `last of ${defining.length} blocks defining ${name}` : '',
      helpers.length > 0 ? `${helpers.length} helper block(s) prepended` : '',
      chosen.b.closed ? '' : 'unclosed fence',
    ].filter(Boolean);
    return { ok: true, code, note: notes.join('; ') };
  }
  const m = defines.exec(text);
  if (!m) return { ok: false, reason: `no code in response (nothing defines ${name})` };
  const lines = text.split('\n');
  const starts = language === 'python' ? /^(?:def|class|import|from|async def|@)\b/ : /^(?:function|class|const|let|var|export|async|module|'use strict'|"use strict")\b/;
  let first = lines.findIndex((l) => starts.test(l));
  if (first < 0) first = 0;
  return { ok: true, code: lines.slice(first).join('\n'), note: 'no fence: preamble stripped' };
}
