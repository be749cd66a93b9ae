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

const root: Suite = { name: '', parent: undefined, beforeEach: [], afterEach: [] };
let current = root;
const tests: CollectedTest[] = [];

function chain(suite: Suite): Suite[] {
  return suite.parent ? [...chain(suite.parent), suite] : [];
}

export function describe(name: string, body: () => void): void {
  const suite: Suite = { name, parent: current, beforeEach: [], afterEach: [] };
  current = suite;
  try {
    body();
  } finally {
    current = suite.parent ?? root;
  }
}

export function it(name: string, body: () => unknown): void {
  const suites = [root, ...chain(current)];
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
}

export function beforeEach(hook: Hook): void {
  current.beforeEach.push(hook);
}

export function afterEach(hook: Hook): void {
  current.afterEach.push(hook);
}

/** Every test declared through the neutral host so far, in declaration order. */
export function collectedTests(): readonly CollectedTest[] {
  return tests;
}
