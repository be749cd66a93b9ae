/** One test as the neutral runner knows it: its full name and a run that wraps it in its hooks. */
export interface CollectedTest {
  name: string;
  run(): Promise<void>;
}

type Hook = () => unknown;

interface Suite {
  name: string;
  parent: Suite | undefined;
  beforeEach: Hook[];
  afterEach: Hook[];
}

function chain(suite: Suite | undefined): Suite[] {
  return suite ? [...chain(suite.parent), suite] : [];
}

/** A registry of suites and tests for runtimes whose runner has no describe or hooks. */
export function createCollector() {
  const root: Suite = { name: '', parent: undefined, beforeEach: [], afterEach: [] };
  let current = root;
  const tests: CollectedTest[] = [];
  return {
    describe(name: string, body: () => void): void {
      const suite: Suite = { name, parent: current, beforeEach: [], afterEach: [] };
      current = suite;
      try {
        body();
      } finally {
        current = suite.parent ?? root;
      }
    },
    it(name: string, body: () => unknown): void {
      const suites = chain(current);
      tests.push({
        name: [...suites.map((suite) => suite.name).filter(Boolean), name].join(' > '),
        async run() {
          // Hooks run outside in before the test and inside out after it, even when it fails.
          try {
            for (const suite of suites) for (const hook of suite.beforeEach) await hook();
            await body();
          } finally {
            for (const suite of suites.toReversed()) for (const hook of suite.afterEach) await hook();
          }
        },
      });
    },
    beforeEach(hook: Hook): void {
      current.beforeEach.push(hook);
    },
    afterEach(hook: Hook): void {
      current.afterEach.push(hook);
    },
    /** Every test declared so far, in declaration order. */
    tests(): readonly CollectedTest[] {
      return tests;
    },
  };
}
