import { describe, expect, it } from 'vitest';
import { simBannerLines } from './banner';

describe('simBannerLines', () => {
  it('names the URL and models and gives a curl line (with the key when the endpoint has one)', () => {
    const [listen, models, curl] = simBannerLines('http://127.0.0.1:8089/v1', ['sim-fast', 'sim-plain'], undefined);
    expect(listen).toBe('sim endpoint listening on http://127.0.0.1:8089/v1');
    expect(models).toBe('models: sim-fast, sim-plain');
    expect(curl).toBe(`try: curl -sN http://127.0.0.1:8089/v1/chat/completions -H 'content-type: application/json' -d '{"model":"sim-fast","stream":true,"messages":[{"role":"user","content":"Hello"}]}'`);
    expect(simBannerLines('http://h/v1', ['m'], 'k')[2]).toContain(` -H 'authorization: Bearer k' -d `);
  });
});
