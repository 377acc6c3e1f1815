import type { JudgeIdentity, ResultRow, RunManifest } from '@crucibleforge/core';
import type { ComparabilityIssue } from './types';

export function judgeKey(identity: JudgeIdentity): string {
  return `${identity.model}\u0000${identity.endpoint}\u0000${identity.prompt_version}`;
}

/** `judge-122b (prompt v3)`: what tables show; the endpoint is in the JSON and the HTML tooltip. */
export function judgeLabel(identity: JudgeIdentity): string {
  return `${identity.model} (prompt ${identity.prompt_version})`;
}

function byCreated(manifests: readonly RunManifest[]): RunManifest[] {
  return [...manifests].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
}

/** Case id → revision in the newest manifest that lists the case. */
export function currentRevisions(manifests: readonly RunManifest[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const manifest of byCreated(manifests)) for (const c of manifest.cases) out.set(c.id, c.revision);
  return out;
}

/** The judge of the newest manifest that names one. */
export function expectedJudge(manifests: readonly RunManifest[]): JudgeIdentity | null {
  let judge: JudgeIdentity | null = null;
  for (const manifest of byCreated(manifests)) if (manifest.judge) judge = manifest.judge;
  return judge;
}

/** `a, b, c, d, e and 3 more` */
export function listSome(items: readonly string[], max = 5): string {
  const shown = items.slice(0, max).join(', ');
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}

interface Analysis {
  issues: ComparabilityIssue[];
  /** model → notes explaining why it is not comparable */
  notes: Map<string, string[]>;
}

function addNote(notes: Map<string, string[]>, model: string, note: string): void {
  const list = notes.get(model) ?? [];
  list.push(note);
  notes.set(model, list);
}

function revisionIssues(rows: readonly ResultRow[], current: Map<string, string>, a: Analysis): void {
  const byCase = new Map<string, ResultRow[]>();
  for (const row of rows) byCase.set(row.case_id, [...(byCase.get(row.case_id) ?? []), row]);
  const offModel = new Map<string, string[]>();
  for (const [caseId, caseRows] of [...byCase].sort(([x], [y]) => x.localeCompare(y))) {
    const byRevision = new Map<string, string[]>();
    for (const row of caseRows) byRevision.set(row.case_revision, [...(byRevision.get(row.case_revision) ?? []), row.model]);
    if (byRevision.size < 2) continue;
    const known = current.get(caseId) ?? null;
    const revisions = [...byRevision]
      .map(([revision, models]) => ({ revision, models: [...models].sort() }))
      .sort((x, y) => y.models.length - x.models.length || x.revision.localeCompare(y.revision));
    a.issues.push({
      kind: 'case-revision',
      case_id: caseId,
      category: caseRows[0]?.category ?? '',
      current_revision: known,
      revisions,
    });
    // Blame the rows off the current revision; with no manifest to say which is current, the minority.
    const reference = known ?? revisions[0]?.revision;
    const tie = known === null && revisions.length > 1 && revisions[0]?.models.length === revisions[1]?.models.length;
    for (const group of revisions) {
      if (!tie && group.revision === reference) continue;
      for (const model of group.models) offModel.set(model, [...(offModel.get(model) ?? []), `${caseId} (${group.revision})`]);
    }
  }
  for (const [model, cases] of offModel) {
    addNote(a.notes, model, `case revision differs from other models on ${cases.length} case(s): ${listSome(cases)}`);
  }
}

function judgeIssues(rows: readonly ResultRow[], expected: JudgeIdentity | null, a: Analysis): void {
  const groups = new Map<string, { identity: JudgeIdentity; models: Set<string>; cases: Set<string>; rows: number }>();
  const perModel = new Map<string, Set<string>>();
  for (const row of rows) {
    if (row.judge === undefined) continue;
    const key = judgeKey(row.judge.identity);
    const group = groups.get(key) ?? { identity: row.judge.identity, models: new Set(), cases: new Set(), rows: 0 };
    group.models.add(row.model);
    group.cases.add(row.case_id);
    group.rows += 1;
    groups.set(key, group);
    perModel.set(row.model, (perModel.get(row.model) ?? new Set()).add(key));
  }
  const expectedKey = expected === null ? null : judgeKey(expected);
  const mismatchExpected = expectedKey !== null && [...groups.keys()].some((k) => k !== expectedKey);
  if (groups.size < 2 && !mismatchExpected) return;
  const sorted = [...groups].sort(([, x], [, y]) => y.rows - x.rows || judgeLabel(x.identity).localeCompare(judgeLabel(y.identity)));
  a.issues.push({
    kind: 'judge',
    expected,
    groups: sorted.map(([, g]) => ({
      identity: g.identity,
      label: judgeLabel(g.identity),
      models: [...g.models].sort(),
      case_ids: [...g.cases].sort(),
      rows: g.rows,
    })),
  });
  const reference = expectedKey ?? sorted[0]?.[0];
  for (const [model, keys] of perModel) {
    const off = [...keys].filter((k) => k !== reference);
    if (off.length === 0) continue;
    const labels = [...keys].map((k) => judgeLabel(groups.get(k)?.identity ?? { model: '?', endpoint: '', prompt_version: '?' }));
    addNote(a.notes, model, keys.size > 1 ? `judged by ${keys.size} different judges: ${labels.join('; ')}` : `judged by ${labels.join('')}`);
  }
}

/** The grader version of a row; rows graded before versions were recorded were graded by graders/1. */
export function graderVersionOf(row: ResultRow): string {
  return row.grader_version ?? 'graders/1';
}

/** `graders/10` sorts after `graders/9`. */
export function compareVersions(a: string, b: string): number {
  return a.localeCompare(b, undefined, { numeric: true });
}

function graderIssues(rows: readonly ResultRow[], a: Analysis): void {
  const groups = new Map<string, { models: Set<string>; rows: number }>();
  for (const row of rows) {
    const v = graderVersionOf(row);
    const g = groups.get(v) ?? { models: new Set(), rows: 0 };
    g.models.add(row.model);
    g.rows += 1;
    groups.set(v, g);
  }
  if (groups.size < 2) return;
  const versions = [...groups.keys()].sort(compareVersions);
  const newest = versions[versions.length - 1]!;
  a.issues.push({ kind: 'grader-version', newest, groups: [...versions].reverse().map((v) => ({ version: v, models: [...groups.get(v)!.models].sort(), rows: groups.get(v)!.rows })) });
  const older = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const v = graderVersionOf(row);
    if (v === newest) continue;
    const perModel = older.get(row.model) ?? new Map<string, number>();
    perModel.set(v, (perModel.get(v) ?? 0) + 1);
    older.set(row.model, perModel);
  }
  for (const [model, byVersion] of older) {
    addNote(a.notes, model, `graded by older graders on ${[...byVersion].map(([v, n]) => `${n} row(s) (${v})`).join(', ')}; "crucibleforge regrade" grades them again with ${newest}`);
  }
}

function coverageIssue(rows: readonly ResultRow[], a: Analysis): void {
  const all = new Set(rows.map((r) => r.case_id));
  const perModel = new Map<string, Set<string>>();
  for (const row of rows) perModel.set(row.model, (perModel.get(row.model) ?? new Set()).add(row.case_id));
  const models = [...perModel]
    .map(([model, cases]) => ({ model, cases: cases.size, missing: [...all].filter((c) => !cases.has(c)).sort() }))
    .sort((x, y) => x.model.localeCompare(y.model));
  if (models.every((m) => m.missing.length === 0)) return;
  a.issues.push({ kind: 'coverage', total_cases: all.size, models });
  for (const m of models) {
    if (m.missing.length > 0) addNote(a.notes, m.model, `ran ${m.cases} of ${all.size} cases; missing ${listSome(m.missing)}`);
  }
}

/**
 * Everything that makes two models' numbers not comparable: the same case at different revisions, different
 * judge identities (or not the judge the newest manifest names), rows graded by different grader versions,
 * and different case sets.
 */
export function analyseComparability(rows: readonly ResultRow[], manifests: readonly RunManifest[]): Analysis {
  const analysis: Analysis = { issues: [], notes: new Map() };
  revisionIssues(rows, currentRevisions(manifests), analysis);
  judgeIssues(rows, expectedJudge(manifests), analysis);
  graderIssues(rows, analysis);
  coverageIssue(rows, analysis);
  return analysis;
}
