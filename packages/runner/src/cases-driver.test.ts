import { describe, expect, it } from 'vitest';
import { createCasesDriver } from './cases-driver';
import { FIXTURE_CASES_DIR } from '@crucibleforge/testkit';

const dir = FIXTURE_CASES_DIR;

describe('the cases-package driver', () => {
  it('plans a profile, applies category filters, and drives a tool script with scripted results', async () => {
    const driver = createCasesDriver({ casesDir: dir });
    const all = await driver.plan({ profile: 'test', categories: null });
    expect(all.map((c) => c.id).sort()).toEqual([
      'coding-add-function',
      'math-add-large',
      'math-add-small',
      'prose-capital-france',
      'reasoning-long-memo',
      'tooluse-weather-fahrenheit',
    ]);
    expect(all.find((c) => c.id === 'reasoning-long-memo')?.long_context).toBe(true);
    expect(all.find((c) => c.id === 'math-add-small')?.long_context).toBe(false);
    expect(all.find((c) => c.id === 'tooluse-weather-fahrenheit')?.turns).toBe(4);
    expect((await driver.plan({ profile: 'test', categories: ['math'] })).map((c) => c.id)).toEqual(['math-add-large', 'math-add-small']);
    await expect(driver.plan({ profile: 'nope', categories: null })).rejects.toThrow(/unknown profile "nope".*quick, test|valid profiles/);

    const tool = all.find((c) => c.id === 'tooluse-weather-fahrenheit')!;
    const noSandbox = { sandbox: () => Promise.reject(new Error('no sandbox')) };
    const m = await driver.materialize(tool, null, noSandbox);
    const request = driver.request(m);
    expect(request.messages).toEqual([{ role: 'user', content: expect.stringContaining('Oslo') }]);
    expect(request.tools?.map((t) => t.function.name)).toEqual(['get_temperature', 'celsius_to_fahrenheit']);
    expect(request.min_context).toBeNull();
    const call = { id: 'c1', name: 'get_temperature', arguments: '{"city":"Oslo"}' };
    const step = driver.next(m, [...request.messages, { role: 'assistant', content: '', tool_calls: [call] }]);
    expect(step).toEqual({ done: false, messages: [{ role: 'tool', tool_call_id: 'c1', name: 'get_temperature', content: '{"celsius":10}' }] });
    expect(driver.next(m, [...request.messages, { role: 'assistant', content: 'done' }])).toEqual({ done: true });
    // the run's reply budget (a profile override) is what the case is materialised with
    const memo = await driver.materialize(all.find((c) => c.id === 'reasoning-long-memo')!, null, noSandbox);
    expect(driver.request(memo).min_context).toBe(200000);

    const prose = await driver.materialize(all.find((c) => c.id === 'prose-capital-france')!, 7, noSandbox);
    expect(driver.request(prose).judge_input).toEqual({
      question: expect.stringContaining('capital of France'),
      reference: 'Paris',
      facts: ['Paris'],
      focus: 'the city named as the capital',
    });
    const graded = await driver.grade(prose, { content: 'Paris.', tool_calls: [], tool_calls_by_turn: [], transcript: [], finish_reason: 'stop' }, noSandbox);
    expect(graded.status).toBe('pending');
  });
});
