import { describe, expect, it } from 'vitest';
import { isLeaseError } from './errors';
import { leaseAuth, leaseDetachedNote, leaseHeldLine, leaseReleasedLine, parseDeviceList } from './held-text';

describe('lease holder text', () => {
  const lease = { id: 'L1', devices: [0, 1] };
  it('names the lease, its GPUs and where it is held', () => {
    expect(leaseHeldLine(lease, 'http://box:1234')).toBe('lease L1 held on GPU 0,1 of http://box:1234; press Ctrl-C to release\n');
    expect(leaseHeldLine(lease, undefined)).toBe('lease L1 held on GPU 0,1 (local lock); press Ctrl-C to release\n');
    expect(leaseDetachedNote(lease, 'http://box', 300)).toContain('drops it after 300 s idle. Release it with: crucibleforge lease release --server http://box --id L1');
    expect(leaseDetachedNote(lease, 'http://box', 0)).toContain('drops it after never (no TTL)');
  });
  it('a release by the holder or by id; an unknown id counts as released', () => {
    expect(leaseReleasedLine({ leaseId: 'L1', outcome: 'released' }, true)).toBe('released lease L1\n');
    expect(leaseReleasedLine({ leaseId: 'L1', outcome: 'already-gone' }, true)).toBe('released lease L1 (the server had already dropped it)\n');
    expect(leaseReleasedLine({ leaseId: 'L1', outcome: 'released' }, false)).toBe('released lease L1\n');
    expect(leaseReleasedLine({ leaseId: 'L1', outcome: 'already-gone' }, false)).toBe('lease L1 was already gone (counts as released)\n');
  });
  it('GPU indices are whole numbers ≥ 0; anything else is LEASE_CONFIG naming the field', () => {
    expect(parseDeviceList(['0', '3'])).toEqual([0, 3]);
    const bad = (items: string[]) => {
      try {
        parseDeviceList(items, '--devices');
      } catch (error) {
        return isLeaseError(error, 'LEASE_CONFIG') ? error.message : 'other';
      }
      return 'none';
    };
    expect(bad(['x'])).toBe('--devices: "x" is not a GPU index (a whole number ≥ 0)');
    expect(bad(['-1'])).toContain('"-1" is not a GPU index');
    expect(bad([])).toBe('--devices needs at least one GPU index, e.g. --devices 0,1');
  });
  it('auth: only what was given; a header other than bearer or x-api-key is LEASE_CONFIG naming the field', () => {
    expect(leaseAuth({})).toEqual({});
    expect(leaseAuth({ apiKey: 'k', apiKeyHeader: 'x-api-key', pin: '1234' })).toEqual({ apiKey: 'k', apiKeyHeader: 'x-api-key', pin: '1234' });
    expect(() => leaseAuth({ apiKeyHeader: 'basic' }, '--api-key-header')).toThrow('--api-key-header must be bearer or x-api-key, got "basic"');
  });
});
