import { describe, expect, it } from 'vitest';
import { configSummary, configSummaryText } from './config-text';

describe('config summary', () => {
  const config = { providers: { lm: {}, hosted: {} }, models: { a: { enabled: true }, b: { enabled: false } }, judge: { model: 'j' } };
  it('lists providers, models and the enabled ones, and the judge', () => {
    expect(configSummary('/c/models.yaml', config)).toEqual({ path: '/c/models.yaml', providers: ['lm', 'hosted'], models: ['a', 'b'], enabled: ['a'], judge: 'j' });
    expect(configSummaryText('/c/models.yaml', config)).toBe('/c/models.yaml\nvalid: 2 providers, 2 models (1 enabled), judge j\n');
    expect(configSummaryText('m.yaml', { ...config, judge: undefined })).toBe('m.yaml\nvalid: 2 providers, 2 models (1 enabled), no judge\n');
  });
});
