import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'admin-panel',
    include: ['test/**/*.test.ts'],
    testTimeout: 60000,
    hookTimeout: 120000,
    fileParallelism: false,
  },
});
