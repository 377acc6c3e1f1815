import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: { name: 'case-set', environment: 'node', testTimeout: 30_000, hookTimeout: 30_000, include: ['src/**/*.test.ts'] },
});
