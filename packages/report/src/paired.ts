import type { PairwiseSummary, ResultRow } from '@crucibleforge/core';
import { rowOutcome } from './rates';
import { mcnemarExact } from './stats';
import type { PairedComparison, PairwiseReport, PairwiseRatingRow } from './types';

/** Significance level for saying "A beats B". */
export const ALPHA = 0.05;

/** `0.0020`, `0.031`, `0.25`, `1`; below 0.001 as `<0.001`. */
export function formatP(p: number): string {
  if (p < 0.001) return '<0.001';
  if (p >= 1) return '1';
  return p.toPrecision(2);
}

/** `p=0.0039`, `p<0.001`. */
export function pValueText(p: number): string {
  const text = formatP(p);
  return text.startsWith('<') ? `p${text}` : `p=${text}`;
}

/**
 * Exact McNemar comparison of `a` against `b` on the cases both graded (pass or fail) at the same revision.
 * `rowsByModel` holds the counted (latest) rows keyed by case id.
 */
export function compareModels(
  a: string,
  b: string,
  rowsByModel: ReadonlyMap<string, ReadonlyMap<string, ResultRow>>,
): PairedComparison {
  const left = rowsByModel.get(a) ?? new Map<string, ResultRow>();
  const right = rowsByModel.get(b) ?? new Map<string, ResultRow>();
  const out = { both_pass: 0, a_only: 0, b_only: 0, both_fail: 0, excluded_revision: 0 };
  for (const [caseId, rowA] of left) {
    const rowB = right.get(caseId);
    if (rowB === undefined) continue;
    const oa = rowOutcome(rowA);
    const ob = rowOutcome(rowB);
    if ((oa !== 'pass' && oa !== 'fail') || (ob !== 'pass' && ob !== 'fail')) continue;
    if (rowA.case_revision !== rowB.case_revision) {
      out.excluded_revision += 1;
      continue;
    }
    if (oa === 'pass' && ob === 'pass') out.both_pass += 1;
    else if (oa === 'pass') out.a_only += 1;
    else if (ob === 'pass') out.b_only += 1;
    else out.both_fail += 1;
  }
  const common = out.both_pass + out.a_only + out.b_only + out.both_fail;
  const p = mcnemarExact(out.a_only, out.b_only);
  const verdict: PairedComparison['verdict'] = p >= ALPHA ? 'noise' : out.a_only > out.b_only ? 'a' : 'b';
  const pText = pValueText(p);
  const summary =
    verdict === 'a'
      ? `${a} beats ${b} (${pText})`
      : verdict === 'b'
        ? `${b} beats ${a} (${pText})`
        : `${a} vs ${b}: within noise (${pText})`;
  return { a, b, common, ...out, p_value: p, verdict, summary };
}

/** Every pair of models in rank order (`a` is always the higher-ranked). */
export function compareAll(
  ranked: readonly string[],
  rowsByModel: ReadonlyMap<string, ReadonlyMap<string, ResultRow>>,
): PairedComparison[] {
  const out: PairedComparison[] = [];
  ranked.forEach((a, i) => {
    for (const b of ranked.slice(i + 1)) out.push(compareModels(a, b, rowsByModel));
  });
  return out;
}

/** Per-model win/tie/loss totals from the judge's pairwise summary, sorted by rating. */
export function pairwiseReport(summary: PairwiseSummary): PairwiseReport {
  const totals = new Map<string, PairwiseRatingRow>();
  const entry = (model: string): PairwiseRatingRow => {
    let row = totals.get(model);
    if (row === undefined) {
      row = { model, rating: null, wins: 0, ties: 0, losses: 0, games: 0, win_rate: null };
      totals.set(model, row);
    }
    return row;
  };
  for (const model of summary.models) entry(model);
  for (const pair of summary.pairs) {
    const a = entry(pair.a);
    const b = entry(pair.b);
    a.wins += pair.wins;
    a.ties += pair.ties;
    a.losses += pair.losses;
    b.wins += pair.losses;
    b.ties += pair.ties;
    b.losses += pair.wins;
  }
  for (const r of summary.ratings) entry(r.model).rating = r.rating;
  const ratings = [...totals.values()].map((row) => {
    const games = row.wins + row.ties + row.losses;
    return { ...row, games, win_rate: games === 0 ? null : (row.wins + row.ties / 2) / games };
  });
  ratings.sort((x, y) => {
    const rx = x.rating ?? Number.NEGATIVE_INFINITY;
    const ry = y.rating ?? Number.NEGATIVE_INFINITY;
    return ry - rx || x.model.localeCompare(y.model);
  });
  return { judge: summary.judge, ratings, pairs: summary.pairs };
}
