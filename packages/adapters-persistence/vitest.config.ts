import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'persistence',
    include: ['src/**/*.test.ts'],
    testTimeout: 20_000,
    // Starting a testcontainers PostgreSQL may pull an image first.
    hookTimeout: 120_000,
  },
});
