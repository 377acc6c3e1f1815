import type { Sandbox } from '@crucibleforge/sandbox';
import { grade } from '../grade';
import { fillCase, verifySeeds, type MaterializedCase } from '../materialize';
import { referenceTranscript } from '../reference';
import type { CaseDef } from '../schema/case';

/** Every auto-graded case carries at least this many correct replies in distinct styles… */
export const MIN_RIGHT_REPLIES = 3;
/** …and at least this many plausible near misses. */
export const MIN_WRONG_REPLIES = 3;
/** Coding cases: mutants of the reference (a boundary, a tie-break, a missed rule) that the tests must catch. */
export const MIN_MUTANTS = 3;

type Reply = NonNullable<NonNullable<CaseDef['verify']>['right_replies']>[number];

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Case-level corpus rules (independent of seeds): every case but a judged one has at least
 * MIN_RIGHT_REPLIES right and MIN_WRONG_REPLIES wrong replies, coding cases MIN_MUTANTS wrong solutions;
 * no reply appears twice; a reply pinned to a seed names one of the verify seeds.
 */
export function corpusProblems(def: CaseDef, seeded: boolean): string[] {
  const g = def.grader;
  if (g.type === 'judge') {
    return (def.verify?.right_replies?.length || def.verify?.wrong_replies?.length) ? ['right_replies and wrong_replies do not apply to judged cases'] : [];
  }
  const out: string[] = [];
  const right = def.verify?.right_replies ?? [];
  const wrong = def.verify?.wrong_replies ?? [];
  if (right.length < MIN_RIGHT_REPLIES) out.push(`corpus: ${right.length} right_replies; every auto-graded case needs at least ${MIN_RIGHT_REPLIES} (distinct realistic styles)`);
  if (wrong.length < MIN_WRONG_REPLIES) out.push(`corpus: ${wrong.length} wrong_replies; every auto-graded case needs at least ${MIN_WRONG_REPLIES} (plausible near misses)`);
  if (g.type === 'code') {
    const mutants = (def.verify?.wrong_solutions ?? []).filter((w) => !w.too_slow).length;
    if (mutants < MIN_MUTANTS) out.push(`corpus: ${mutants} wrong_solutions (mutants of the reference); coding cases need at least ${MIN_MUTANTS}`);
  }
  const seeds = seeded ? verifySeeds(def) : [];
  const seen = new Map<string, string>();
  for (const [field, list] of [['right_replies', right], ['wrong_replies', wrong]] as const) {
    list.forEach((r, i) => {
      const where = `verify.${field}[${i}]`;
      if (r.reply === undefined && r.calls === undefined) out.push(`${where}: give a reply or calls`);
      if (r.seed !== undefined && !seeded) out.push(`${where}: seed applies to seeded cases only`);
      else if (r.seed !== undefined && !seeds.includes(r.seed)) out.push(`${where}: seed ${r.seed} is not one of the verify seeds (${seeds.join(', ')})`);
      const key = JSON.stringify([r.seed ?? null, r.reply?.replace(/\s+$/, '') ?? null, r.calls ?? null]);
      const first = seen.get(key);
      if (first) out.push(`${where} repeats ${first}`);
      else seen.set(key, where);
    });
  }
  return out;
}

export interface ReplyVerdicts {
  problems: string[];
  negative_controls: number;
}

/**
 * Grades the corpus replies that apply to this seed (unpinned ones, and those pinned to it), filled for
 * the variant: right replies must pass, wrong ones must fail. Code replies run in the sandbox (concurrently;
 * the pool bounds the processes) with the case's calibrated limit.
 */
export async function replyVerdicts(c: MaterializedCase, sandbox: (() => Promise<Sandbox>) | null, timeLimitMs: number | undefined, signal?: AbortSignal): Promise<ReplyVerdicts> {
  const out: ReplyVerdicts = { problems: [], negative_controls: 0 };
  const d = c.def;
  if (d.grader.type === 'judge') return out;
  const jobs: { field: 'right_replies' | 'wrong_replies'; i: number; raw: Reply }[] = [];
  for (const field of ['wrong_replies', 'right_replies'] as const) {
    (d.verify?.[field] ?? []).forEach((raw, i) => {
      if (raw.seed === undefined || raw.seed === c.seed) jobs.push({ field, i, raw });
    });
  }
  const code = d.grader.type === 'code';
  const box = code && jobs.length > 0 && sandbox ? await sandbox() : undefined;
  const verdicts = await Promise.all(
    jobs.map(async ({ field, i, raw }): Promise<{ problem?: string; control?: true }> => {
      let filled: Reply;
      try {
        // the same variant as the prompt and reference: a literal {{x}} would fail for the wrong reason
        filled = fillCase(c, raw, `verify.${field}[${i}]`);
      } catch (error) {
        return { problem: message(error) };
      }
      // a reply without `calls` keeps the reference's calls (`calls: []` means none were made)
      const input = code ? { content: filled.reply ?? '', finish_reason: 'stop' as const } : referenceTranscript(c, { reply: filled.reply, calls: filled.calls });
      const outcome = await grade(c, input, { ...(box ? { sandbox: box } : {}), ...(timeLimitMs ? { timeLimitMs } : {}), ...(signal ? { signal } : {}) });
      if (outcome.status === 'error') return { problem: `${field === 'right_replies' ? 'right' : 'wrong'} reply ${i + 1} (${filled.why}): grader error: ${outcome.reason}` };
      if (field === 'right_replies') return outcome.status === 'pass' ? {} : { problem: `right reply ${i + 1} (${filled.why}) FAILS the grader: ${outcome.reason}` };
      return outcome.status === 'pass' ? { problem: `wrong reply ${i + 1} (${filled.why}) PASSES the grader` } : { control: true };
    }),
  );
  for (const v of verdicts) {
    if (v.problem) out.problems.push(v.problem);
    if (v.control) out.negative_controls++;
  }
  return out;
}
