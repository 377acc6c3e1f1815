import type { ToolCall } from '@crucibleforge/core';
import { describe, expect, it } from 'vitest';
import { grade } from '../grade';
import { parseCaseFile } from '../loader';
import { materializeCase } from '../materialize';
import type { GraderOf } from '../schema/graders';
import { gradeToolCalls } from './tool-calls';

const call = (name: string, args: Record<string, unknown>, id = name): ToolCall => ({ id, name, arguments: JSON.stringify(args) });
const lookup: GraderOf<'tool_calls'> = { type: 'tool_calls', calls: [{ name: 'lookup', args: { order: 50 } }] };

describe('fabricated tools', () => {
  it('a call to a tool that is not offered fails, naming the tool', () => {
    const input = { content: '', tool_calls: [call('lookup', { order: 50 }), call('refund_order', { order: 50 })] };
    expect(gradeToolCalls(lookup, input, ['lookup', 'cancel'])).toMatchObject({
      status: 'fail',
      reason: 'called refund_order, a tool that is not offered (offered: lookup, cancel)',
      score: 0,
    });
    expect(gradeToolCalls({ type: 'tool_calls', max_calls: 3 }, input, [])).toMatchObject({ reason: 'called lookup, a tool that is not offered (no tools are offered)' });
    expect(gradeToolCalls(lookup, { content: '', tool_calls: [call('lookup', { order: 50 })] }, ['lookup'])).toMatchObject({ status: 'pass' });
  });
  it('unknown_tools: allow opts out; null offered skips the check', () => {
    const input = { content: '', tool_calls: [call('lookup', { order: 50 }), call('ghost', {})] };
    expect(gradeToolCalls({ ...lookup, unknown_tools: 'allow' }, input, ['lookup']).status).toBe('pass');
    expect(gradeToolCalls(lookup, input, null).status).toBe('pass');
  });
  it('a forbidden fabricated name still reads as a forbidden call', () => {
    const g: GraderOf<'tool_calls'> = { ...lookup, forbid: [{ name: 'wire_funds' }] };
    const input = { content: '', tool_calls: [call('lookup', { order: 50 }), call('wire_funds', { to: 'x' })] };
    expect(gradeToolCalls(g, input, ['lookup']).reason).toBe('forbidden call wire_funds(to="x")');
  });
  it('grade() checks against the case tools', async () => {
    const yaml = `id: tooluse-x\ntitle: x y z\ncategory: tooluse\ndifficulty: easy\nprompt: q\nmax_tokens: 100\ntools:\n  - { name: lookup, parameters: { type: object, properties: { order: { type: integer } } } }\ngrader: { type: tool_calls, calls: [{ name: lookup, args: { order: 50 } }] }\nreference: { calls: [[{ name: lookup, arguments: { order: 50 } }]] }\n`;
    const c = await materializeCase(parseCaseFile(yaml, 'tooluse/x.yaml').cases[0]!.def, null);
    expect(await grade(c, { content: '', tool_calls: [call('lookup', { order: 50 })] })).toMatchObject({ status: 'pass' });
    expect(await grade(c, { content: '', tool_calls: [call('lookup', { order: 50 }), call('Lookup', { order: 50 })] })).toMatchObject({
      status: 'fail',
      reason: 'called Lookup, a tool that is not offered (offered: lookup)',
    });
  });
});
