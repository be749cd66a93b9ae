import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AdminCredentials, Clock } from '@uas/domain';
import { ManualClock } from '@uas/domain/testing';
import { createTestPostgresSchema } from '@uas/adapters-persistence/testing';
import { loadConfig } from '../../src/config';
import { createApplication, type Application } from '../../src/application';
import { systemContainer } from '../../src/container';
import { JsonLogger } from '../../src/adapters/json-logger';
import { readAdminKeyFile } from './admin-api';

/** The storage backends every HTTP scenario suite runs against. */
export const BACKENDS = ['sqlite', 'postgres'] as const;
export type Backend = (typeof BACKENDS)[number];

export interface TestApplication {
  app: Application['app'];
  /** The OpenID engine's requests, for a suite that serves the application over a real socket. */
  openId: Application['openId'];
  /** The credentials the first start wrote to the admin key file. */
  admin: AdminCredentials;
  /** Moves only when told to: expiry and throttling tests need no sleeping. */
  clock: ManualClock;
  /** Every log line written so far, to check that no secret ever reaches the logs. */
  logs: string[];
  /** Configuration variables this instance was started with (database and key file included). */
  env: Record<string, string>;
  dir: string;
  readiness: Application['readiness'];
  useCases: Application['useCases'];
  /** Closes the database under the running app, as an outage would. */
  closeDatabase(): Promise<void>;
  close(): Promise<void>;
}

/** Configuration of a fresh, isolated database on `backend`, and how to remove it afterwards. */
export async function testDatabaseEnv(
  backend: Backend,
  dir: string,
): Promise<{ env: Record<string, string>; remove(): Promise<void> }> {
  if (backend === 'sqlite') return { env: { DATABASE_URL: `sqlite:${join(dir, 'app.db')}` }, remove: async () => {} };
  const schema = await createTestPostgresSchema();
  return { env: schema.env, remove: () => schema.drop() };
}

/**
 * The real application (bcrypt at its lowest cost, real jose keys) over a fresh database on
 * `backend`, in a temporary directory. `env` overrides configuration variables.
 */
export async function startTestApplication(
  backend: Backend = 'sqlite',
  env: Record<string, string> = {},
): Promise<TestApplication> {
  const dir = await mkdtemp(join(tmpdir(), 'uas-test-'));
  const database = await testDatabaseEnv(backend, dir);
  const fullEnv = {
    ...database.env,
    ADMIN_KEY_PATH: join(dir, 'admin.key'),
    BCRYPT_COST: '4',
    LOG_LEVEL: 'debug',
    ...env,
  };
  const config = loadConfig(fullEnv);
  const logs: string[] = [];
  const clock = new ManualClock(new Date());
  // The application inherits the clock from its parent container.
  const parent = systemContainer.createChildContainer();
  parent.register(Clock, { useValue: clock });
  const { app, openId, readiness, useCases, close } = await createApplication(
    config,
    new JsonLogger(config.logLevel, (line) => logs.push(line)),
    parent,
  );
  const admin = await readAdminKeyFile(config.adminKeyPath);
  return {
    app,
    openId,
    admin,
    clock,
    logs,
    env: fullEnv,
    dir,
    readiness,
    useCases,
    closeDatabase: close,
    async close() {
      await close();
      await database.remove();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
