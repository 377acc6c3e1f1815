/** What `cases show`, `cases grade` and `cases calibrate` print for one materialised case. */
import { neutralizeControls, type GradeOutcome } from '@crucibleforge/core';
import type { CalibrationResult } from './calibrate-attempts';
import type { MaterializedCase } from './materialize';

/** Exactly what the model is sent for the case and seed (system, each user turn, tools, max_tokens); never the reference, grader or verify data. */
export function caseShowText(c: MaterializedCase): string {
  const parts: string[] = [];
  if (c.system) parts.push(`--- system\n${c.system.trimEnd()}`);
  c.turns.forEach((turn, i) => {
    const when = i === 0 ? '' : ' (sent after the previous reply)';
    parts.push(`--- user, turn ${i + 1} of ${c.turns.length}${when}\n${turn.trimEnd()}`);
  });
  if (c.tools.length > 0) {
    parts.push(`--- tools (${c.tools.length}; their results come from the case's scripted world)\n${JSON.stringify(c.tools, null, 2)}`);
  }
  parts.push(`--- max_tokens: ${c.max_tokens}${c.seed === null ? '' : `; seed ${c.seed}`}`);
  return `${parts.join('\n\n')}\n`;
}

/** `PASS id (seed N): reason`, the reason (a grader's words about a model's reply) made inert. */
export function gradeOutcomeText(c: Pick<MaterializedCase, 'id' | 'seed'>, outcome: GradeOutcome): string {
  const label = outcome.status === 'pass' ? 'PASS' : outcome.status.toUpperCase();
  return `${label} ${c.id}${c.seed === null ? '' : ` (seed ${c.seed})`}: ${neutralizeControls(outcome.reason)}\n`;
}

/** What `cases calibrate` prints: a verdict per attempt (file and reason inert), then what the evidence says against the label. */
export function calibrationText(id: string, labelled: string, result: CalibrationResult): string {
  const { verdicts, calibration, evidence } = result;
  // a grader's reason quotes the model's reply: its control characters are shown, not obeyed
  const lines = verdicts.map((v) => `${v.status === 'pass' ? 'PASS' : v.status.toUpperCase()} ${neutralizeControls(v.file)}: ${neutralizeControls(v.reason)}\n`);
  return `${lines.join('')}${id}: ${calibration.passes} of ${verdicts.length} blind attempts passed: the evidence says ${evidence} (labelled ${labelled})\n`;
}
