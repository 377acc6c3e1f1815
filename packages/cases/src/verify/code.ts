import type { Sandbox } from '@crucibleforge/sandbox';
import { calibrateCase, type Calibration } from '../calibration';
import { gradeCode } from '../graders/code';
import { referenceText } from '../reference';
import type { GraderOf } from '../schema/graders';
import { extractCode } from '../text/code';
import { fillCase, type MaterializedCase } from '../materialize';

/** Issue 6: every coding case has at least this many tests. */
export const MIN_CODE_TESTS = 8;
/** A calibrated limit above this makes verify (and every run) slow: shrink the inputs. */
export const MAX_CALIBRATED_LIMIT_MS = 20_000;

export interface CodeVerifyOutcome {
  problems: string[];
  warnings: string[];
  executed: number;
  negative_controls: number;
  calibration: Calibration | null;
}

const FENCE = { python: 'python', node: 'javascript' } as const;

/** Expected values too common to mean anything when a driver happens to contain them. */
const TRIVIAL_EXPECTED = new Set(['None', 'True', 'False', 'null', 'true', 'false', 'undefined', '[]', '{}', '()', '""', "''", 'set()', 'new Map()', 'new Set()']);

/**
 * A driver runs in the solution's process, so it must hold no expected value: no call test's expected
 * literal (four characters or more, not a trivial one) and no long number (six digits or more) that a
 * code test compares against. Pure; returns problems.
 */
export function driverLeaks(g: GraderOf<'code'>): string[] {
  const driver = g.driver;
  if (!driver) return [];
  const problems: string[] = [];
  g.tests.forEach((t, i) => {
    const label = `test ${i + 1}${t.name ? ` (${t.name})` : ''}`;
    if ('call' in t) {
      const literal = t.expect === undefined ? '' : String(t.expect).trim();
      if (literal.length >= 4 && !TRIVIAL_EXPECTED.has(literal) && driver.includes(literal)) problems.push(`the driver contains ${label}'s expected value ${literal.slice(0, 60)}`);
      return;
    }
    for (const line of t.code.split('\n')) {
      if (!/==|!==|expect|assert/i.test(line)) continue;
      for (const m of line.matchAll(/(?<![\w.])-?\d{6,}(?![\w.])/g)) {
        if (new RegExp(`(?<![\\w.])${m[0]}(?![\\w.])`).test(driver)) problems.push(`the driver contains ${m[0]}, which ${label} compares against`);
      }
    }
  });
  return problems;
}

/** A wrong solution that fails only because it reads a helper name nobody defines proves nothing about the tests. */
function missingHelper(reason: string): string | null {
  const m = /NameError: name '(_\w+)' is not defined|ReferenceError: (_\w+) is not defined/.exec(reason);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

/**
 * A code case proves itself: the reference solution (as a fenced reply, through the real extraction and
 * grading path) passes in the real sandbox; every wrong solution fails; a too_slow one fails by TIMEOUT
 * under the calibrated limit (complexity cases are calibrated here, and the calibration is returned).
 * The wrong solutions run concurrently (the sandbox pool bounds the processes); a complexity case's only
 * wait on its calibration, which they need for the limit.
 */
export async function verifyCode(c: MaterializedCase, sandbox: Sandbox, signal?: AbortSignal): Promise<CodeVerifyOutcome> {
  const g = c.grader as GraderOf<'code'>;
  const out: CodeVerifyOutcome = { problems: [], warnings: [], executed: 0, negative_controls: 0, calibration: null };
  if (g.tests.length < MIN_CODE_TESTS) out.problems.push(`${g.tests.length} tests; coding cases need at least ${MIN_CODE_TESTS}`);
  out.problems.push(...driverLeaks(g));
  const reply = referenceText(c) ?? '';
  const extracted = extractCode(reply, g.language, g.function);
  if (!extracted.ok) {
    out.problems.push(`reference solution: ${extracted.reason}`);
    return out;
  }
  const withSignal = signal ? { signal } : {};
  if (g.complexity) {
    const cal = await calibrateCase(c, sandbox, signal);
    out.calibration = cal;
    out.executed++;
    if (!cal.reference_passed) {
      const r = await gradeCode(g, reply, { sandbox, timeLimitMs: 60_000, ...withSignal });
      out.problems.push(`reference solution fails: ${r.reason}`);
      return out;
    }
    if (cal.limit_ms > MAX_CALIBRATED_LIMIT_MS) out.warnings.push(`calibrated limit ${cal.limit_ms} ms is long; use smaller inputs`);
    await wrongSolutions(c, g, sandbox, cal.limit_ms, signal, out);
    return out;
  }
  // No calibration needed: the reference and the wrong solutions run at the same time.
  const problemsBefore = out.problems.length;
  const [ref] = await Promise.all([gradeCode(g, reply, { sandbox, ...withSignal }), wrongSolutions(c, g, sandbox, undefined, signal, out)]);
  out.executed++;
  if (ref.status !== 'pass') {
    out.problems.splice(problemsBefore, out.problems.length - problemsBefore, `reference solution fails: ${ref.reason}`);
    out.negative_controls = 0;
  }
  return out;
}

/** Runs every wrong solution (filled for the variant) concurrently; adds problems in their order. */
async function wrongSolutions(c: MaterializedCase, g: GraderOf<'code'>, sandbox: Sandbox, timeLimitMs: number | undefined, signal: AbortSignal | undefined, out: CodeVerifyOutcome): Promise<void> {
  const verdicts = await Promise.all(
    (c.def.verify?.wrong_solutions ?? []).map(async (raw, i): Promise<string | null> => {
      let wrong: typeof raw;
      try {
        wrong = fillCase(c, raw, `verify.wrong_solutions[${i}]`); // the same variant as the reference solution
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
      const r = await gradeCode(g, `\`\`\`${FENCE[g.language]}\n${wrong.code}\n\`\`\``, {
        sandbox,
        ...(timeLimitMs ? { timeLimitMs } : {}),
        ...(signal ? { signal } : {}),
      });
      const label = `wrong solution ${i + 1} (${wrong.why})`;
      if (r.status === 'error') return `${label}: ${r.reason}`;
      if (r.status === 'pass') return `${label} PASSES the tests — the tests cannot catch it`;
      if (wrong.too_slow && !r.reason.startsWith('TIMEOUT')) return `${label} should fail by TIMEOUT, but: ${r.reason}`;
      const helper = missingHelper(r.reason);
      if (helper) return `${label} fails only because ${helper} is not defined in the solution's process (put what it reads in the grader's driver): ${r.reason}`;
      return null;
    }),
  );
  for (const v of verdicts) {
    if (v === null) out.negative_controls++;
    else out.problems.push(v);
  }
}
