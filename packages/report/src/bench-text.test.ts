import type { GradeOutcome } from '@crucibleforge/core';
import { describe, expect, it } from 'vitest';
import { benchScores } from './bench';
import { benchDotWidth, benchScoreLine, BenchSections, benchTestLines, columns, type BenchRow, type Paint } from './bench-text';

const result = (over: Partial<BenchRow> & { status?: GradeOutcome['status']; reason?: string; parts?: unknown[] } = {}): BenchRow => ({
  case_id: 'x',
  title: 'JSON Compliance',
  category: over.category ?? 'instruct',
  grade: { status: over.status ?? 'pass', reason: over.reason ?? 'ok', ...(over.parts ? { details: { parts: over.parts } } : {}) },
});
const tag = (name: string) => (text: string) => `<${name}>${text}</${name}>`;
const marked: Paint = { pass: tag('pass'), fail: tag('fail'), warn: tag('warn'), dim: tag('dim'), bold: tag('bold') };
const plain: Paint = { pass: (t) => t, fail: (t) => t, warn: (t) => t, dim: (t) => t, bold: (t) => t };

describe('bench-llm text', () => {
  it('dotted lines end in one column; the verdict and the reason are painted', () => {
    const width = benchDotWidth(['JSON Compliance', 'Logic Puzzle (Pet Ownership)']);
    const fail = result({ status: 'fail', reason: 'missing key "tags"' });
    expect(benchTestLines(fail, width, marked)).toEqual([`    JSON Compliance${'.'.repeat(width - 15)} <fail>FAIL</fail>`, '<dim>      ↳ missing key "tags"</dim>']);
    expect(benchTestLines(result({}), width, plain)).toEqual([`    JSON Compliance${'.'.repeat(width - 15)} PASS`]);
    expect(benchTestLines(result({ status: 'skipped', reason: 'no sandbox' }), width, plain)[0]).toMatch(/\.{3,} SKIP$/);
  });

  it('scores one point per ability test and one per agent part', () => {
    const agent = result({
      category: 'agent',
      status: 'fail',
      parts: [
        { name: 'Task Acknowledgment', pass: false, reason: 'invents data' },
        { name: 'Format Adherence', pass: true, reason: 'ok' },
        { name: 'Conciseness', pass: true, reason: 'ok' },
      ],
    });
    expect(benchScores([result({}), result({ status: 'fail' }), result({ status: 'skipped' }), agent])).toEqual({ ability: 1, abilityTotal: 3, agent: 2, agentTotal: 3 });
    expect(benchScoreLine([agent], true)).toBe('    Agent Fitness Score: 2/3');
    expect(benchScoreLine([result({}), result({ status: 'fail' })], false)).toBe('    Ability Score: 1/2');
    expect(benchTestLines(agent, 24, plain).filter((l) => !l.includes('↳'))).toEqual([
      '    Task Acknowledgment..... FAIL',
      '    Format Adherence........ PASS',
      '    Conciseness............. PASS',
    ]);
  });

  it('lays cells out in left-aligned columns', () => {
    expect(columns([['MODEL', 'SIZE'], ['a-long-id', '1 GB']], '  ')).toEqual(['  MODEL      SIZE', '  a-long-id  1 GB']);
  });

  it('prints the sections test by test: a heading as a section begins, the lines of each test, the score as it ends', () => {
    const tests = [
      { id: 'code', title: 'Code', category: 'coding' },
      { id: 'json', title: 'JSON Compliance', category: 'instruct' },
      { id: 'fit', title: 'Agent Fit', category: 'agent' },
    ];
    const s = new BenchSections(tests, plain);
    expect(s.start('code')).toEqual(['  🧠 ABILITY TESTS']);
    expect(s.end({ ...result({}), case_id: 'code', title: 'Code', category: 'coding' })).toEqual([`    Code${'.'.repeat(benchDotWidth(['Code', 'JSON Compliance']) - 4)} PASS`]);
    expect(s.start('json')).toEqual([]);
    s.end({ ...result({ status: 'fail', reason: 'not JSON' }), case_id: 'json' });
    expect(s.start('fit')).toEqual(['    Ability Score: 1/2', '', '  🤖 AGENT FITNESS TESTS']);
    s.end({ ...result({ parts: [{ name: 'Task Acknowledgment', pass: true, reason: 'ok' }] }), case_id: 'fit', title: 'Agent Fit', category: 'agent' });
    expect(s.close()).toEqual(['    Agent Fitness Score: 1/1', '']);
    expect(s.close()).toEqual([]);
    expect(s.rows.map((r) => r.case_id)).toEqual(['code', 'json', 'fit']);
  });
});
