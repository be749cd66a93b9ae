import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { AdminClient } from './admin-client';
import { startTestApplication, type Backend, type TestApplication } from './test-application';

export interface Scenario {
  readonly t: TestApplication;
  readonly client: AdminClient;
}

/**
 * The real application on `backend` for the tests of one `describe`: a fresh one for each test
 * (`fresh: 'each'`, for tests that count users or end sessions) or one for all of them. After
 * every test, no log line may hold a secret.
 */
export function scenarioApplication(
  backend: Backend,
  { env = {}, fresh = 'all' }: { env?: Record<string, string>; fresh?: 'each' | 'all' } = {},
): Scenario {
  let current: Scenario | undefined;
  const start = async () => {
    const t = await startTestApplication(backend, env);
    current = { t, client: new AdminClient(t) };
  };
  const stop = async () => {
    const ending = current;
    current = undefined;
    await ending?.t.close();
  };
  if (fresh === 'each') {
    beforeEach(start);
    afterEach(async () => {
      try {
        current?.client.expectCleanLogs();
      } finally {
        await stop();
      }
    });
  } else {
    beforeAll(start);
    afterEach(() => current?.client.expectCleanLogs());
    afterAll(stop);
  }
  const live = () => {
    if (!current) throw new Error('the application runs only inside a test');
    return current;
  };
  return {
    get t() {
      return live().t;
    },
    get client() {
      return live().client;
    },
  };
}
