import { describe, expect, it } from 'vitest';
import { BudgetLedger, caseUpperBound, costOfUsage, estimateCost, sumUsage } from './cost';

const usage = (p: number, c: number, extra: Partial<{ cached: number; reasoning: number; cost: number }> = {}) => ({
  prompt_tokens: p,
  completion_tokens: c,
  cached_tokens: extra.cached ?? null,
  reasoning_tokens: extra.reasoning ?? null,
  cost_usd: extra.cost ?? null,
});

describe('costOfUsage', () => {
  it('prices uncached input, cached input, output and reasoning separately', () => {
    const prices = { input: 1, cached_input: 0.1, output: 2, reasoning: 3 };
    // 1000 prompt (400 cached), 500 completion (200 reasoning)
    const usd = costOfUsage(usage(1000, 500, { cached: 400, reasoning: 200 }), prices);
    expect(usd).toBeCloseTo((600 * 1 + 400 * 0.1 + 300 * 2 + 200 * 3) / 1e6, 12);
  });
  it('cached defaults to input price and reasoning to output price', () => {
    expect(costOfUsage(usage(1000, 1000, { cached: 500, reasoning: 500 }), { input: 2, output: 4 })).toBeCloseTo(0.006, 12);
  });
  it('prefers a provider-reported cost and is null for an unpriced model', () => {
    expect(costOfUsage(usage(10, 10, { cost: 0.0123 }), { input: 100, output: 100 })).toBe(0.0123);
    expect(costOfUsage(usage(10, 10), null)).toBeNull();
    expect(costOfUsage(usage(10, 10, { cost: 0.5 }), null)).toBe(0.5);
  });
  it('sums every attempt', () => {
    expect(sumUsage(usage(10, 5, { reasoning: 5 }), usage(10, 3))).toEqual({
      prompt_tokens: 20,
      completion_tokens: 8,
      cached_tokens: null,
      reasoning_tokens: 5,
      cost_usd: null,
    });
  });
});

describe('estimate and budget', () => {
  const prices = { input: 1, output: 10 };
  it('the upper bound covers the full budget, every turn and a recovery retry', () => {
    const one = caseUpperBound({ model: 'm', prices, prompt_chars: 200, max_tokens: 1000, retry_max_tokens: 0, turns: 1 });
    expect(one).toBeCloseTo(((100 + 32) * 1 + 1000 * 10) / 1e6, 12);
    const retry = caseUpperBound({ model: 'm', prices, prompt_chars: 200, max_tokens: 1000, retry_max_tokens: 250, turns: 1 });
    expect(retry - one).toBeCloseTo((132 + 2500) / 1e6, 12);
    const twoTurns = caseUpperBound({ model: 'm', prices, prompt_chars: 200, max_tokens: 1000, retry_max_tokens: 0, turns: 2 });
    expect(twoTurns).toBeCloseTo(one + ((132 + 1000) * 1 + 10_000) / 1e6, 12);
  });
  it('sums per model and flags whether anything is priced', () => {
    const est = estimateCost([
      { model: 'a', prices, prompt_chars: 0, max_tokens: 100, retry_max_tokens: 0, turns: 1 },
      { model: 'a', prices, prompt_chars: 0, max_tokens: 100, retry_max_tokens: 0, turns: 1 },
      { model: 'local', prices: null, prompt_chars: 0, max_tokens: 100, retry_max_tokens: 0, turns: 1 },
    ]);
    expect(est.priced).toBe(true);
    expect(est.per_model).toEqual([
      { model: 'a', usd: 0.002064, cases: 2, priced: true },
      { model: 'local', usd: 0, cases: 1, priced: false },
    ]);
    expect(est.total_usd).toBe(0.002064);
    expect(estimateCost([{ model: 'l', prices: null, prompt_chars: 5, max_tokens: 5, retry_max_tokens: 0, turns: 1 }]).priced).toBe(false);
  });
  it('a ledger never lets reserved + spent pass the limit', () => {
    const ledger = new BudgetLedger(1.0, 0.2);
    expect(ledger.tryReserve(0.5)).toBe(true);
    expect(ledger.tryReserve(0.5)).toBe(false); // 0.2 + 0.5 + 0.5 > 1
    ledger.settle(0.5, 0.1);
    expect(ledger.spent).toBeCloseTo(0.3);
    expect(ledger.tryReserve(0.7)).toBe(true);
    expect(new BudgetLedger(null).tryReserve(1e9)).toBe(true);
  });
});
