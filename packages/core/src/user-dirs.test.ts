import { describe, expect, it } from 'vitest';
import { userDir } from './user-dirs';

describe('userDir', () => {
  it('takes $XDG_<KIND>_HOME, else ~/.config or ~/.cache, else nothing', () => {
    expect(userDir({ XDG_CACHE_HOME: '/x/cache', HOME: '/h' }, 'CACHE')).toBe('/x/cache/crucibleforge');
    expect(userDir({ XDG_CONFIG_HOME: '', HOME: '/h' }, 'CONFIG')).toBe('/h/.config/crucibleforge');
    expect(userDir({ HOME: '/h/' }, 'CACHE')).toBe('/h/.cache/crucibleforge');
    expect(userDir({}, 'CONFIG')).toBeUndefined();
  });
});
