import { describe, expect, it } from 'vitest';
import { latestAttempts, rowKey } from './index';

const row = (model: string, case_id: string, seed: number | null, finished_at: string, run_id = 'r1') => ({
  model,
  case_id,
  seed,
  finished_at,
  started_at: finished_at,
  run_id,
});

describe('row keys and the latest attempt', () => {
  it('keys by model, case and seed', () => {
    expect(rowKey({ model: 'm', case_id: 'c', seed: 1 })).not.toBe(rowKey({ model: 'm', case_id: 'c', seed: 2 }));
    expect(rowKey({ model: 'm', case_id: 'c', seed: null })).toBe(rowKey({ model: 'm', case_id: 'c', seed: null }));
  });
  it('keeps the latest attempt per slot in input order; another seed is another slot', () => {
    const a = row('m', 'c', 1, '2025-01-01T00:00:02Z');
    const b = row('m', 'c', 1, '2025-01-01T00:00:01Z');
    const c = row('m', 'c', 2, '2025-01-01T00:00:00Z');
    const d = row('m', 'c', 1, '2025-01-01T00:00:02Z', 'r2');
    expect(latestAttempts([a, b, c])).toEqual({ rows: [a, c], superseded: 1 });
    expect(latestAttempts([d, a]).rows).toEqual([d]); // same time: the larger run id wins
  });
});
