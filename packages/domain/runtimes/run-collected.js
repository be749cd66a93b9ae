// Runs the suites collected by the neutral host one by one, for runtimes without a test runner
// (workerd, the browser), and answers what a runner would print: counts and each failure.
import { collectedTests } from '../dist/testing/index.js';

export async function runCollected() {
  const failures = [];
  const tests = collectedTests();
  for (const test of tests) {
    try {
      await test.run();
    } catch (error) {
      failures.push({
        name: test.name,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      });
    }
  }
  return { passed: tests.length - failures.length, failed: failures.length, failures };
}
