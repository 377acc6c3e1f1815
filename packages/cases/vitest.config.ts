import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    name: 'cases',
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    include: ['src/**/*.test.ts'],
    // the tooling reads the environment; the sandbox test helper gets CI through inject('CI')
    provide: { CI: process.env['CI'] ?? '' },
  },
});
