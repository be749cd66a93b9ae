// Setup file: wherever vitest runs the domain's suites, they use vitest's own describe/it/expect/vi
// (its types are wider than the subset the suites are written against, hence the cast).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTestHost, type TestHost } from '../src/testing/test-api.ts';

useTestHost({ describe, it, beforeEach, afterEach, expect, vi } as unknown as TestHost);
