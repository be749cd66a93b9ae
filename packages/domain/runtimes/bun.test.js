// `bun test` driver: bun:test runs the built suites.
import { afterEach, beforeEach, describe, it } from 'bun:test';
import { useTestHost } from '../dist/testing/index.js';

useTestHost({ describe, it, beforeEach, afterEach });
await import('./dist/all-tests.js');
