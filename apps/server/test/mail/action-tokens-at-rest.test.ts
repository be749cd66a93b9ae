import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '@uas/adapters-persistence';
import { JsonLogger } from '../../src/adapters/json-logger';
import { SecretKeyRing } from '../../src/adapters/secret-key-ring';
import { createApplication } from '../../src/application';
import { loadConfig } from '../../src/config';
import { storedData } from '../support/stored-data';
import { buildContainer, mailOf, useCasesOf } from '../../src/container';
import { BACKENDS, testDatabaseEnv } from '../support/test-application';

const ROUNDS = 25;
const USES_AT_ONCE = 8;

describe.each(BACKENDS)('single-use tokens on %s', (backend) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it(`of ${USES_AT_ONCE} uses at once on two instances exactly one wins, ${ROUNDS} rounds; no token is ever in the database, an audit event or a log line`, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'uas-tokens-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const database = await testDatabaseEnv(backend, dir);
    cleanups.push(() => database.remove());
    const config = loadConfig({ ...database.env, ADMIN_KEY_PATH: join(dir, 'admin.key'), BCRYPT_COST: '4' });
    const logs: string[] = [];
    const logger = new JsonLogger('debug', (line) => logs.push(line));
    // The first start makes the key ring's secrets, as a real first start does.
    const application = await createApplication(config, logger);
    cleanups.push(() => application.close());

    // Two instances: each its own connection, container and use cases over the one database.
    const instances: { useCases: ReturnType<typeof useCasesOf>; mail: ReturnType<typeof mailOf>['service'] }[] = [];
    for (let n = 0; n < 2; n += 1) {
      const handle = await openDatabase(config.database, { schema: config.databaseSchema });
      cleanups.push(() => handle.close());
      const container = buildContainer(config, handle);
      instances.push({
        useCases: useCasesOf(container, config, logger),
        mail: mailOf(container, config, logger).service,
      });
    }
    const [first] = instances;
    const user = await first!.useCases.users.create({ email: 'ada@example.com', password: 'correct horse 1' });

    const tokens: string[] = [];
    const winnersPerRound: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      let token = '';
      await first!.useCases.actionTokens.issue('verification', { userId: user.id, email: user.email }, (issued) => {
        token = issued;
        return first!.mail.compose('test', user.email, {
          recipient: `https://accounts.example.com/verify?token=${issued}`,
        });
      });
      tokens.push(token);
      const uses = await Promise.allSettled(
        Array.from({ length: USES_AT_ONCE }, (_, n) =>
          instances[n % 2]!.useCases.actionTokens.use('verification', token),
        ),
      );
      winnersPerRound.push(uses.filter((use) => use.status === 'fulfilled').length);
    }
    expect(winnersPerRound.filter((winners) => winners !== 1)).toEqual([]); // used twice, or lost
    expect(new Set(tokens).size).toBe(ROUNDS);

    const stored = await storedData(config);
    expect(stored).toContain(user.email); // the search reads the stored rows
    const logged = logs.join('\n');
    for (const token of tokens) {
      expect(stored).not.toContain(token); // rows, audit events and queued mail alike
      expect(logged).not.toContain(token);
    }
    expect(stored).not.toContain('accounts.example.com/verify');
  }, 90_000);

  it('a token made on one instance just after it rotated the token-hmac secret is used once on the other, whose ring was cached before, 10 rounds', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'uas-rotation-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const database = await testDatabaseEnv(backend, dir);
    cleanups.push(() => database.remove());
    const config = loadConfig({ ...database.env, ADMIN_KEY_PATH: join(dir, 'admin.key'), BCRYPT_COST: '4' });
    const logger = new JsonLogger('error', () => {});
    const application = await createApplication(config, logger);
    cleanups.push(() => application.close());
    const instances = [];
    for (let n = 0; n < 2; n += 1) {
      const handle = await openDatabase(config.database, { schema: config.databaseSchema });
      cleanups.push(() => handle.close());
      const container = buildContainer(config, handle);
      instances.push({
        useCases: useCasesOf(container, config, logger),
        mail: mailOf(container, config, logger).service,
        keyRing: container.resolve(SecretKeyRing),
      });
    }
    const [maker, taker] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const user = await maker.useCases.users.create({ email: 'ada@example.com', password: 'correct horse 1' });
    await taker.keyRing.digests('warm-the-cache'); // read now: every rotation below is news to it

    const outcomes: string[] = [];
    for (let round = 0; round < 10; round += 1) {
      await maker.keyRing.rotate('token-hmac');
      let token = '';
      await maker.useCases.actionTokens.issue('verification', { userId: user.id, email: user.email }, (issued) => {
        token = issued;
        return maker.mail.compose('test', user.email, { recipient: 'ada' });
      });
      const uses = await Promise.allSettled([
        taker.useCases.actionTokens.use('verification', token),
        taker.useCases.actionTokens.use('verification', token),
      ]);
      outcomes.push(uses.map((use) => use.status).join(','));
    }
    // Found under the new secret by a reload on a miss, and used exactly once.
    expect(outcomes.filter((outcome) => outcome.split('fulfilled').length - 1 !== 1)).toEqual([]);
  }, 90_000);
});
