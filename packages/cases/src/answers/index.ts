import { formatRational } from '../text/numbers';
import { stripThinking } from '@crucibleforge/core';
import { extractChoice } from './choice';
import { finalAnswer } from './final';
import { answerBlock, extractList } from './list';
import { extractMapping } from './mapping';
import { extractNumber } from './number';
import { normaliseItem, type AnswerContext, type Normaliser } from './text';
import { cleanValue, stripParentheticals, valueHead } from './clean';

/** The kinds of answer a case can ask for, and how each is read (see the extractor of each kind). */
export type AnswerSpec =
  | { kind: 'number' }
  | { kind: 'text'; normaliser?: Normaliser }
  | { kind: 'list' | 'set'; normaliser?: Normaliser; or?: boolean }
  | { kind: 'choice'; options: string[] }
  | { kind: 'mapping'; keys: string[]; values: string[] };

export interface ExtractOptions extends AnswerContext {
  /** The label the prompt asks for (default "Answer"). */
  label?: string;
}

export type Extracted =
  | { ok: true; kind: 'number'; value: string; source: string }
  | { ok: true; kind: 'text' | 'choice'; value: string; source: string }
  | { ok: true; kind: 'list' | 'set'; value: string[]; source: string }
  | { ok: true; kind: 'mapping'; value: Record<string, string>; source: string }
  | { ok: false; reason: string };

/**
 * Reads the final answer of a reply as a typed value: the last explicit final answer (`Answer:`,
 * `**Final answer:**`, `\boxed{}`, else "the final answer is …", a bold final line, a one-line reply),
 * then the kind's extractor — a number (`141 566 219`, `3/4`, `327 (remark)`; two values are a hedge), a
 * short text in its normal form, the items of a list or set, the option of a multiple choice, or the
 * key → value map of an assignment (lines, clauses or a markdown table). Reasoning blocks are ignored.
 */
export function extractAnswer(spec: AnswerSpec, reply: string, options: ExtractOptions = {}): Extracted {
  const text = stripThinking(reply);
  if (!text) return { ok: false, reason: 'empty reply' };
  const label = options.label ?? 'Answer';
  const final = finalAnswer(text, label);
  if (spec.kind === 'mapping') {
    const scope = final?.source === 'label' ? final.rest : text;
    return { ok: true, kind: 'mapping', value: Object.fromEntries(extractMapping(scope, spec.keys, spec.values)), source: final?.source ?? 'whole reply' };
  }
  if (!final) return { ok: false, reason: `no "${label}:" line` };
  switch (spec.kind) {
    case 'number': {
      const r = extractNumber(final.value);
      return r.ok ? { ok: true, kind: 'number', value: formatRational(r.value), source: final.source } : r;
    }
    case 'text': {
      const v = normaliseItem(valueHead(stripParentheticals(cleanValue(final.value))), spec.normaliser ?? 'fold');
      return v === null ? { ok: false, reason: `no answer after "${label}:"` } : { ok: true, kind: 'text', value: v, source: final.source };
    }
    case 'list':
    case 'set': {
      const r = extractList(answerBlock(final), { normaliser: spec.normaliser ?? 'fold', ...(spec.or ? { or: true } : {}) }, [], options);
      return r.ok ? { ok: true, kind: spec.kind, value: r.items, source: final.source } : r;
    }
    case 'choice': {
      const r = extractChoice(final.value, spec.options, options.question ?? '');
      return r.ok ? { ok: true, kind: 'choice', value: r.option, source: final.source } : r;
    }
  }
}
