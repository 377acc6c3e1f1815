import type { ChatMessage, ResultRow } from '@crucibleforge/core';
import { graderVersionOf } from './comparability';
import { rowOutcome } from './rates';
import type { FailureEntry, FailureKind } from './types';

export const DEFAULT_MAX_DETAIL_CHARS = 20_000;

/** Collapses all whitespace runs (newlines included) to one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Keeps the first `max` characters and says how many were cut. */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n… [${text.length - max} more characters not shown]`;
}

/** `TRUNCATED at 32768 tokens (32768 reasoning tokens)` from the row's usage. */
function truncationNote(row: ResultRow): string {
  const completion = row.usage?.completion_tokens ?? null;
  const reasoning = row.usage?.reasoning_tokens ?? null;
  if (completion === null) return 'TRUNCATED at the token limit';
  return `TRUNCATED at ${completion} tokens${reasoning !== null ? ` (${reasoning} reasoning tokens)` : ''}`;
}

/**
 * The one-line reason shown for a failed, errored or judge-errored row: the grader's reason (or the judge's
 * note when the grader gave none), prefixed with a TRUNCATED note when the reply stopped at the length limit
 * and the reason does not already say so.
 */
export function failureReason(row: ResultRow): string {
  let reason = oneLine(row.grade.reason ?? '');
  const judge = row.judge;
  if (reason === '' && judge !== undefined) {
    const note = oneLine(judge.note ?? '');
    reason = `judge: ${judge.verdict}${note === '' ? '' : ` — ${note}`}`;
  }
  if (reason === '' && row.error_class !== undefined) reason = row.error_class;
  if (reason === '') reason = '(no reason given)';
  if (row.finish_reason === 'length' && !/truncat/i.test(reason)) reason = `${truncationNote(row)}; ${reason}`;
  return reason;
}

function capMessages(messages: readonly ChatMessage[] | undefined, max: number): ChatMessage[] {
  return (messages ?? []).map((m) => ({ ...m, content: m.content === null ? null : capText(m.content, max) }));
}

const KIND_BY_OUTCOME: Partial<Record<ReturnType<typeof rowOutcome>, FailureKind>> = {
  fail: 'fail',
  error: 'error',
  'judge-error': 'judge-error',
};

/** A failure entry for a counted row, or null when the row passed, is pending or was skipped. */
export function failureEntry(row: ResultRow, maxChars: number): FailureEntry | null {
  const kind = KIND_BY_OUTCOME[rowOutcome(row)];
  if (kind === undefined) return null;
  const judge = row.judge;
  return {
    model: row.model,
    category: row.category,
    case_id: row.case_id,
    case_revision: row.case_revision,
    difficulty: row.difficulty,
    title: row.title ?? null,
    kind,
    reason: failureReason(row),
    run_id: row.run_id,
    finished_at: row.finished_at,
    grader_version: graderVersionOf(row),
    regraded_from: row.regraded_from && row.regraded_from.status !== row.grade.status ? row.regraded_from.status : null,
    detail: {
      messages: capMessages(row.messages, maxChars),
      content: capText(row.content ?? '', maxChars),
      reasoning: capText(row.reasoning ?? '', maxChars),
      tool_calls: (row.tool_calls ?? []).map((c) => ({ ...c, arguments: capText(c.arguments, maxChars) })),
      transcript: row.transcript === undefined ? null : capMessages(row.transcript, maxChars),
      grade_reason: row.grade.reason ?? '',
      judge:
        judge === undefined
          ? null
          : {
              verdict: judge.verdict,
              note: capText(judge.note ?? '', maxChars),
              identity: judge.identity,
              samples: judge.samples,
              agreement: judge.agreement,
            },
      error_class: row.error_class ?? null,
      finish_reason: row.finish_reason ?? null,
      usage: row.usage,
    },
  };
}

const KIND_TAG: Record<FailureKind, string> = {
  fail: '',
  error: '[error, not scored] ',
  'judge-error': '[judge error, not scored] ',
};

/** `graders/2`, or `graders/2, regraded: was pass` when a re-grade changed the verdict. */
export function gradedBy(failure: Pick<FailureEntry, 'grader_version' | 'regraded_from'>): string {
  return failure.regraded_from === null ? failure.grader_version : `${failure.grader_version}, regraded: was ${failure.regraded_from}`;
}

/** `deepseek-pro [coding] CZ01-prime-census: TRUNCATED at …; no code in response (graders/2)` (plain text, one line). */
export function failureLine(failure: FailureEntry): string {
  return `${failure.model} [${failure.category}] ${failure.case_id}: ${KIND_TAG[failure.kind]}${failure.reason} (${gradedBy(failure)})`;
}
