import { type Backend, startTestApplication, type TestApplication } from './test-application';

/** What a second instance must share with the first to serve the same accounts. */
const SHARED_VARIABLES = ['DATABASE_URL', 'DATABASE_SCHEMA', 'ADMIN_KEY_PATH'];

/** The first instance's database and admin key file, for another instance started over them. */
export const sharedStoreEnv = (first: TestApplication): Record<string, string> =>
  Object.fromEntries(Object.entries(first.env).filter(([name]) => SHARED_VARIABLES.includes(name)));

export interface TwoInstances {
  a: TestApplication;
  b: TestApplication;
  close(): Promise<void>;
}

/**
 * Two instances of the real application over one database and key file (each its own
 * connections, caches and clock), as two processes behind a load balancer. `env` applies to both.
 */
export async function startTwoInstances(backend: Backend, env: Record<string, string> = {}): Promise<TwoInstances> {
  const a = await startTestApplication(backend, env);
  let b: TestApplication;
  try {
    b = await startTestApplication(backend, { ...env, ...sharedStoreEnv(a) });
  } catch (error) {
    await a.close();
    throw error;
  }
  return {
    a,
    b,
    close: async () => {
      await b.close();
      await a.close();
    },
  };
}
