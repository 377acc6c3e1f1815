import { describe, expect, it } from 'vitest';
import { CrucibleError, isTableError, tableError, toCrucibleError } from './index';

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

describe('error tables', () => {
  const TABLE = { X_BAD: { kind: 'config', retryable: false }, X_FLAKY: { kind: 'endpoint', retryable: true } } as const;
  it('give every error of a package its kind and default retryability', () => {
    const bad = tableError(TABLE, 'X_BAD', 'bad');
    expect([bad.kind, bad.retryable]).toEqual(['config', false]);
    expect(tableError(TABLE, 'X_FLAKY', 'x').retryable).toBe(true);
    expect(tableError(TABLE, 'X_FLAKY', 'x', { retryable: false }).retryable).toBe(false);
    expect(new CrucibleError('ANY', 'x').kind).toBe('internal');
  });
  it('guard by table and code', () => {
    const bad = tableError(TABLE, 'X_BAD', 'bad');
    expect(isTableError(TABLE, bad)).toBe(true);
    expect(isTableError(TABLE, bad, ['X_FLAKY'])).toBe(false);
    expect(isTableError(TABLE, new CrucibleError('Y_OTHER', 'y'))).toBe(false);
    expect(isTableError(TABLE, new Error('plain'))).toBe(false);
  });
});
