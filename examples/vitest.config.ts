import { defineProject } from 'vitest/config';

export default defineProject({
  // The examples run the built package (`pnpm --filter @uas/domain build`), as their users would.
  test: { name: 'examples', include: ['test/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000 },
});
