import { describe, expect, it } from 'vitest';
import { CrucibleError, toCrucibleError } from './index';

describe('CrucibleError', () => {
  it('carries a code, retryability and details', () => {
    const err = new CrucibleError('X_FAILED', 'x failed', { retryable: true, details: { url: 'http://a' } });
    expect(err.code).toBe('X_FAILED');
    expect(err.retryable).toBe(true);
    expect(err.details).toEqual({ url: 'http://a' });
    expect(err).toBeInstanceOf(Error);
  });

  it('is recognised by marker, not prototype', () => {
    const fake = Object.assign(new Error('e'), { [Symbol.for('crucibleforge.error')]: true });
    expect(CrucibleError.isInstance(fake)).toBe(true);
    expect(CrucibleError.isInstance(new Error('plain'))).toBe(false);
    expect(CrucibleError.isInstance(null)).toBe(false);
  });

  it('wraps foreign throws and keeps the cause', () => {
    const original = new TypeError('boom');
    const wrapped = toCrucibleError(original, 'WRAPPED');
    expect(wrapped.code).toBe('WRAPPED');
    expect(wrapped.message).toBe('boom');
    expect(wrapped.cause).toBe(original);
    expect(toCrucibleError(wrapped)).toBe(wrapped);
    expect(toCrucibleError('text').message).toBe('text');
  });
});
