import { afterAll, beforeAll } from 'vitest';
import { AdminClient } from './admin-client';
import { type Backend, startTestApplication, type TestApplication } from './test-application';

/** What a second instance must share with the first to serve the same accounts. */
const SHARED_VARIABLES = ['DATABASE_URL', 'DATABASE_SCHEMA', 'ADMIN_KEY_PATH'];

/** The first instance's database and admin key file, for another instance started over them. */
export const sharedStoreEnv = (first: TestApplication): Record<string, string> =>
  Object.fromEntries(Object.entries(first.env).filter(([name]) => SHARED_VARIABLES.includes(name)));

export interface TwoInstances {
  a: TestApplication;
  b: TestApplication;
  clientA: AdminClient;
  clientB: AdminClient;
}

/**
 * Two instances of the real application over one database and key file (each its own
 * connections, caches and clock), as two processes behind a load balancer: started before the
 * suite's tests, `env` applying to both, and closed after them. The fields are set once the
 * suite's `beforeAll` hooks run, so a suite reads them only from its hooks and tests.
 */
export function twoInstances(backend: Backend, env: Record<string, string> = {}): TwoInstances {
  const instances = {} as TwoInstances;
  const started: TestApplication[] = [];
  beforeAll(async () => {
    const a = await startTestApplication(backend, env);
    started.push(a);
    const b = await startTestApplication(backend, { ...env, ...sharedStoreEnv(a) });
    started.push(b);
    Object.assign(instances, { a, b, clientA: new AdminClient(a), clientB: new AdminClient(b) });
  }, 60_000);
  afterAll(async () => {
    for (const application of started.reverse()) await application.close();
  });
  return instances;
}
