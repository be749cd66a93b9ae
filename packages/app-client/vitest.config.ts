import { defineProject } from 'vitest/config';
import { domainFromSource } from '../../vitest.shared.ts';

export default defineProject({
  ...domainFromSource,
  test: { name: 'app-client', include: ['src/**/*.test.ts'] },
});
