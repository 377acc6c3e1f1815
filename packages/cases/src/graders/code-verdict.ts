import type { GradeOutcome } from '@crucibleforge/core';
import type { PairResult, SandboxResult } from '@crucibleforge/sandbox';
import type { CodeTest } from '../schema/graders';
import { testLabel } from './code-plan';

/** One line of the checker's report (see harness-python.ts / harness-node.ts). */
type ReportEvent =
  | { e: 'hello'; ok: true }
  | { e: 'hello'; ok: false; why: 'load' | 'lost' | 'protocol'; reason: string }
  | { e: 'setup'; ok: false; reason: string }
  | { e: 'start'; i: number }
  | { e: 'end'; i: number; status: 'pass' | 'fail' | 'lost' | 'protocol'; reason: string; ms: number }
  | { e: 'bye'; ok: false; why: 'lost' | 'protocol'; reason: string }
  | { e: 'done'; passed: number; total: number };

export function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${s >= 10 ? Math.round(s) : Math.round(s * 10) / 10} s`;
}

function parseReport(text: string): ReportEvent[] | null {
  const events: ReportEvent[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      const event = JSON.parse(line) as ReportEvent;
      if (event === null || typeof event !== 'object' || typeof event.e !== 'string') return null;
      events.push(event);
    } catch {
      return null;
    }
  }
  return events;
}

function lastLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  return (lines[lines.length - 1] ?? '').slice(0, 200);
}

/** What became of the solution's process, for a channel that closed under the checker. */
function solutionEnd(s: SandboxResult): string {
  switch (s.status) {
    case 'memory':
      return 'memory limit exceeded';
    case 'output_limit':
      return 'output limit exceeded';
    case 'killed':
      return `killed by ${s.signal ?? 'a signal'}`;
    case 'timeout':
      return "TIMEOUT: the solution's CPU limit was reached";
    case 'ok':
      return 'exited before the tests finished';
    default: {
      const err = lastLine(s.stderr);
      return `crashed${err ? `: ${err}` : ` with exit code ${s.exit_code}`}`;
    }
  }
}

/** "crashed (in test 3): ValueError: x" — the in-test note goes right after the first word group. */
function inTest(end: string, where: string): string {
  const colon = end.indexOf(': ');
  return colon < 0 ? `${end} (${where})` : `${end.slice(0, colon)} (${where})${end.slice(colon)}`;
}

/**
 * Pure. A pass only when the checker exited cleanly and its report says: the solution loaded, every test
 * started and passed in order, the solution answered the final bye, and all tests are counted. Anything
 * else is a fail with a reason naming the test; nothing the solution prints is read.
 */
export function interpretCodeRun(result: PairResult, tests: readonly CodeTest[], timeoutMs: number): GradeOutcome {
  const events = parseReport(result.report) ?? [];
  const ms = events.flatMap((e) => (e.e === 'end' ? [e.ms] : []));
  const details = {
    status: result.trusted.status,
    solution_status: result.untrusted.status,
    wall_ms: result.wall_ms,
    cpu_ms: result.cpu_ms,
    sandboxed: result.sandboxed,
    timeout_ms: timeoutMs,
    test_ms: ms,
  };
  const fail = (reason: string): GradeOutcome => ({ status: 'fail', reason, details });
  const started = events.filter((e): e is Extract<ReportEvent, { e: 'start' }> => e.e === 'start');
  const ended = new Set(events.flatMap((e) => (e.e === 'end' ? [e.i] : [])));
  const current = started.find((e) => !ended.has(e.i));
  const where = current ? `in ${testLabel(tests, current.i)}` : events.some((e) => e.e === 'hello') ? 'after the last test' : 'while loading the solution';
  const checker = result.trusted;
  if (checker.status === 'timeout') return fail(`TIMEOUT after ${formatSeconds(timeoutMs)} (${where})`);
  if (checker.status === 'killed') return fail(`killed by ${checker.signal ?? 'a signal'} (${where})`);
  if (checker.status !== 'ok') return fail(`the checker failed (${where}): ${checker.status}${lastLine(checker.stderr) ? `: ${lastLine(checker.stderr)}` : ''}`);
  if (parseReport(result.report) === null || result.report_truncated) return fail("the checker's report is malformed");

  const [hello, ...rest] = events;
  if (!hello || hello.e !== 'hello') return fail("the checker's report does not start with the solution loading");
  if (!hello.ok) {
    if (hello.why === 'load') return fail(`solution failed to load: ${hello.reason}`);
    if (hello.why === 'lost') return fail(`solution failed to load: ${solutionEnd(result.untrusted)}`);
    return fail(`solution failed to load: it broke the channel protocol (${hello.reason})`);
  }
  let i = 0;
  let k = 0;
  if (rest[0]?.e === 'setup') return fail(`the case's setup failed: ${rest[0].reason}`);
  while (k < tests.length) {
    const start = rest[i];
    const end = rest[i + 1];
    if (start?.e !== 'start' || start.i !== k + 1) break;
    const label = testLabel(tests, k + 1);
    if (end?.e !== 'end' || end.i !== k + 1) return fail(`the checker stopped during ${label}`);
    if (end.status === 'fail') return fail(`${label} failed: ${end.reason}`);
    if (end.status === 'lost') return fail(inTest(solutionEnd(result.untrusted), `in ${label}`));
    if (end.status === 'protocol') return fail(`${label} failed: the solution's process broke the channel protocol (${end.reason})`);
    if (end.status !== 'pass') return fail(`the checker reported ${label} as ${String(end.status)}`);
    i += 2;
    k += 1;
  }
  if (k < tests.length) return fail(`the checker's report is incomplete: ${k} of ${tests.length} tests ran`);
  const last = rest[i];
  if (last?.e === 'bye') {
    if (last.why === 'lost') return fail(inTest(solutionEnd(result.untrusted), 'after the last test'));
    return fail(`the solution's process broke the channel protocol after the last test (${last.reason})`);
  }
  if (last?.e !== 'done' || i + 1 !== rest.length || last.passed !== tests.length || last.total !== tests.length) {
    return fail("the checker's report does not end with every test counted");
  }
  return { status: 'pass', reason: `all ${tests.length} tests passed`, score: 1, details };
}
