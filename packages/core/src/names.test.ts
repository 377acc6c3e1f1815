import { describe, expect, it } from 'vitest';
import { closestNames, didYouMean, editDistance } from './names';

describe('names', () => {
  it('counts edits', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });

  it('orders the closest names first, ties alphabetically', () => {
    expect(closestNames('stauts', ['status', 'speed', 'sim', 'state'], 2)).toEqual(['state', 'status']);
  });

  it('suggests one name only when it is close', () => {
    const commands = ['all', 'cases', 'compare', 'config', 'report', 'run', 'status', 'speed'];
    expect(didYouMean('stauts', commands)).toBe('status');
    expect(didYouMean('confg', commands)).toBe('config');
    expect(didYouMean('repor', commands)).toBe('report');
    expect(didYouMean('comp', commands)).toBe('compare');
    expect(didYouMean('xyzzy', commands)).toBeNull();
    expect(didYouMean('', commands)).toBeNull();
    expect(didYouMean('anything', [])).toBeNull();
  });
});
