import { defineProject } from 'vitest/config';
import { domainFromSource } from '../../vitest.shared.ts';

export default defineProject({
  ...domainFromSource,
  test: {
    name: 'persistence',
    include: ['src/**/*.test.ts'],
    // The domain's contract suites declare their cases through vitest here.
    setupFiles: ['../domain/test/vitest-host.ts'],
    testTimeout: 20_000,
    // Starting a testcontainers PostgreSQL may pull an image first.
    hookTimeout: 120_000,
  },
});
