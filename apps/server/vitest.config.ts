import { defineProject } from 'vitest/config';
import { domainFromSource } from '../../vitest.shared.ts';

export default defineProject({
  ...domainFromSource,
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
