import type { PairRunRequest, PairSideRequest } from '@crucibleforge/sandbox';
import type { CodeTest, GraderOf } from '../schema/graders';
import { NODE_PEER } from './harness-node-peer';
import { NODE_CHECKER, NODE_DRIVER } from './harness-node';
import { NODE_WIRE } from './harness-node-wire';
import { PYTHON_CHECKER, PYTHON_DRIVER } from './harness-python';
import { PYTHON_PEER } from './harness-python-peer';
import { PYTHON_WIRE } from './harness-python-wire';

type CodeGrader = GraderOf<'code'>;

export const DEFAULT_MEMORY_MB = 1024;

/** Names a driver defines at its top level (column 0), which the checker reaches like solution names. Pure. */
export function driverNames(language: CodeGrader['language'], driver: string | undefined): string[] {
  if (!driver) return [];
  const names = new Set<string>();
  const patterns =
    language === 'python'
      ? [/^(?:async\s+)?def\s+([A-Za-z_]\w*)/gm, /^class\s+([A-Za-z_]\w*)/gm, /^([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*(?::[^=\n]*)?=(?!=)/gm]
      : [/^(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/gm, /^class\s+([A-Za-z_$][\w$]*)/gm, /^(?:const|let|var)\s+([A-Za-z_$][\w$]*)/gm];
  for (const pattern of patterns) {
    for (const m of driver.matchAll(pattern)) for (const name of m[1]!.split(',')) names.add(name.trim());
  }
  return [...names];
}

/** What the checker is told about each test (it reads plan.json; the solution never sees it). */
function planTest(t: CodeTest): Record<string, unknown> {
  if ('code' in t) return { code: t.code, ...(t.name ? { name: t.name } : {}) };
  return {
    call: t.call,
    ...(t.expect !== undefined ? { expect: String(t.expect) } : {}),
    ...(t.check !== undefined ? { check: t.check } : {}),
    ...(t.compare ? { compare: t.compare } : {}),
    ...(t.tolerance !== undefined ? { tolerance: t.tolerance } : {}),
    ...(t.name ? { name: t.name } : {}),
  };
}

/**
 * The two sides of one grading. The solution's sandbox gets the channel runtime, the driver main, the
 * model's program, the case's driver helpers and the function's name; the checker's sandbox gets the
 * runtime, the checker main and plan.json (tests, setup, expected values). Pure.
 */
export function codeRunRequest(grader: CodeGrader, program: string, timeoutMs: number, signal?: AbortSignal): PairRunRequest {
  const memoryMb = grader.memory_mb ?? DEFAULT_MEMORY_MB;
  const py = grader.language === 'python';
  const ext = py ? 'py' : 'js';
  const runtime: Record<string, string> = py ? { 'wire.py': PYTHON_WIRE, 'peer.py': PYTHON_PEER } : { 'wire.js': NODE_WIRE, 'peer.js': NODE_PEER };
  const untrusted: PairSideRequest = {
    language: grader.language,
    source: py ? PYTHON_DRIVER : NODE_DRIVER,
    files: {
      ...runtime,
      [`solution.${ext}`]: program,
      'job.json': JSON.stringify({ function: grader.function }),
      ...(grader.driver ? { [`driver.${ext}`]: grader.driver } : {}),
    },
    memoryMb,
  };
  const names = [...new Set([grader.function, ...driverNames(grader.language, grader.driver)])];
  const plan = { names, ...(grader.setup ? { setup: grader.setup } : {}), tests: grader.tests.map(planTest) };
  const trusted: PairSideRequest = {
    language: grader.language,
    source: py ? PYTHON_CHECKER : NODE_CHECKER,
    files: { ...runtime, 'plan.json': JSON.stringify(plan) },
    memoryMb,
  };
  return { untrusted, trusted, timeoutMs, ...(signal ? { signal } : {}) };
}

/** "test 3 (touching)": how reasons name a test (1-based). */
export function testLabel(tests: readonly CodeTest[], index: number): string {
  const name = tests[index - 1]?.name;
  return `test ${index}${name ? ` (${name})` : ''}`;
}
