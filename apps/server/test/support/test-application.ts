import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AdminCredentials } from '@uas/domain';
import { ManualClock } from '@uas/domain/testing';
import { loadConfig } from '../../src/config';
import { createApplication, type Application } from '../../src/application';
import { JsonLogger } from '../../src/adapters/json-logger';

export interface TestApplication {
  app: Application['app'];
  /** The credentials the first start wrote to the admin key file. */
  admin: AdminCredentials;
  /** Moves only when told to: expiry and throttling tests need no sleeping. */
  clock: ManualClock;
  /** Every log line written so far, to check that no secret ever reaches the logs. */
  logs: string[];
  dir: string;
  close(): Promise<void>;
}

/**
 * The real application (SQLite file, bcrypt at its lowest cost, real jose keys) in a fresh
 * temporary directory. `env` overrides configuration variables.
 */
export async function startTestApplication(env: Record<string, string> = {}): Promise<TestApplication> {
  const dir = await mkdtemp(join(tmpdir(), 'uas-test-'));
  const config = loadConfig({
    DATABASE_URL: `sqlite:${join(dir, 'app.db')}`,
    ADMIN_KEY_PATH: join(dir, 'admin.key'),
    BCRYPT_COST: '4',
    LOG_LEVEL: 'debug',
    ...env,
  });
  const logs: string[] = [];
  const clock = new ManualClock(new Date());
  const { app, close } = await createApplication(config, new JsonLogger(config.logLevel, (line) => logs.push(line)), { clock });
  const admin = JSON.parse(await readFile(config.adminKeyPath, 'utf8')) as AdminCredentials;
  return {
    app,
    admin,
    clock,
    logs,
    dir,
    async close() {
      await close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
