import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: { name: 'engine-llamacpp', environment: 'node', include: ['src/**/*.test.ts'] },
});
