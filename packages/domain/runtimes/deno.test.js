// `deno test` driver: Deno.test has no describe or hooks, so each collected case (its hooks
// around it) becomes one Deno.test named by its path through the suites.
import { collectedTests } from '../dist/testing/index.js';

await import('./dist/all-tests.js');
for (const test of collectedTests()) Deno.test(test.name, () => test.run());
