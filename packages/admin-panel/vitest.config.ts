import { defineProject } from 'vitest/config';
import { domainFromSource } from '../../vitest.shared.ts';

export default defineProject({
  ...domainFromSource,
  test: {
    name: 'admin-panel',
    include: ['test/**/*.test.ts'],
    testTimeout: 60000,
    hookTimeout: 120000,
    fileParallelism: false,
  },
});
