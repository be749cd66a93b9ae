import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { bearer, jsonInit, usersDocument } from '@uas/adapters-http/testing';
import { createTestPostgresSchema, type TestPostgresSchema } from '@uas/adapters-persistence/testing';
import { ServerProcesses, type ServerProcess } from '../../../../scripts/release-process';
import { createUser, loginAsAdmin, readAdminKeyFile } from '../support/admin-api';
import { eventually } from '../support/eventually';
import { WebhookReceiver } from '../support/webhook-receiver';

const CHANGES = 1000;
/** Changes in flight at once: a burst, as an import or a busy panel makes one. */
const AT_ONCE = 16;
const USERS = 20;

/** The receiver is on loopback and speaks http; retries come soon, so the proofs end soon. */
const WEBHOOK_ENV = {
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
  WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1',
  BCRYPT_COST: '4',
};

interface Burst {
  /** `user id:version` of every change whose answer (200 with its ETag) the client got: committed. */
  committed: Set<string>;
  token: string;
}

/** Creates an endpoint on `server`; the receiver trusts its secret. */
async function createEndpoint(server: ServerProcess, token: string, receiver: WebhookReceiver): Promise<void> {
  const response = await server.fetch(
    '/v1/admin/webhooks',
    jsonInit('POST', { data: { type: 'webhooks', attributes: { url: receiver.url, events: ['*'] } } }, bearer(token)),
  );
  expect(response.status, await response.clone().text()).toBe(201);
  receiver.trust(((await response.json()) as { data: { attributes: { secret: string } } }).data.attributes.secret);
}

/** `USERS` users, then `CHANGES` renames across them, `AT_ONCE` at a time, spread over `servers`. */
async function burst(servers: ServerProcess[], token: string, onAnswered?: (answered: number) => void): Promise<Burst> {
  const committed = new Set<string>();
  const ids: string[] = [];
  for (let n = 0; n < USERS; n += 1) {
    const response = await createUser(servers[0]!, token, {
      email: `burst-${n}@example.com`,
      name: `User ${n}`,
      password: 'burst password 1',
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const { data } = (await response.json()) as { data: { id: string } };
    ids.push(data.id);
    committed.add(`${data.id}:1`);
  }
  let next = 0;
  let answered = 0;
  const worker = async (lane: number) => {
    while (next < CHANGES) {
      const n = next++;
      const id = ids[n % USERS]!;
      const server = servers[(lane + n) % servers.length]!;
      const response = await server
        .fetch(`/v1/admin/users/${id}`, jsonInit('PATCH', usersDocument({ name: `Name ${n}` }, { id }), bearer(token)))
        .catch(() => null);
      if (response?.status !== 200) continue; // the process died under it: committed or not, unknown
      await response.arrayBuffer();
      committed.add(`${id}:${response.headers.get('etag')?.replace(/\D/g, '')}`);
      onAnswered?.((answered += 1));
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, (_, lane) => worker(lane)));
  return { committed, token };
}

/** `user id:version` of every user change the receiver verified. */
const receivedChanges = (receiver: WebhookReceiver) =>
  new Set(
    receiver.received
      .filter((delivery) => delivery.type.startsWith('user.'))
      .map((delivery) => {
        const user = delivery.payload.data.user as { id: string; version: number };
        return `${user.id}:${user.version}`;
      }),
  );

describe('webhooks across real server processes', { timeout: 240_000 }, () => {
  const servers = new ServerProcesses();
  const receivers: WebhookReceiver[] = [];
  let database: TestPostgresSchema | undefined;
  const schemas: (TestPostgresSchema | undefined)[] = [];
  afterEach(async () => {
    await servers.cleanup();
    for (const receiver of receivers.splice(0)) await receiver.stop();
  });
  afterAll(async () => {
    await database?.drop();
    for (const schema of schemas) await schema?.drop();
  });

  it.each(['sqlite', 'postgres'] as const)(
    `kill -9 during a burst of ${CHANGES} changes (%s): after the restart every committed change is delivered, duplicates counted by webhook-id`,
    async (backend) => {
      const receiver = await new WebhookReceiver().start();
      receivers.push(receiver);
      const dir = await servers.tempDir();
      const schema = backend === 'postgres' ? await createTestPostgresSchema() : undefined;
      schemas.push(schema);
      const storage = schema?.env ?? { DATABASE_URL: `sqlite:${join(dir, 'app.db')}` };
      const env = { ...WEBHOOK_ENV, ...storage, ADMIN_KEY_PATH: join(dir, 'admin.key') };
      const first = await servers.start(env);
      const { accessToken } = await loginAsAdmin(first, await readAdminKeyFile(env.ADMIN_KEY_PATH));
      await createEndpoint(first, accessToken, receiver);
      let killed: Promise<unknown> | undefined;
      const { committed } = await burst([first], accessToken, (answered) => {
        if (answered === CHANGES / 2) killed = first.kill();
      });
      await killed;
      const deliveredBeforeKill = receiver.received.length;

      await servers.start(env);
      // A delivery the dead process had claimed waits for its lease (30 s) to end.
      await eventually(() => [...committed].every((change) => receivedChanges(receiver).has(change)), 120_000);
      await new Promise((resolve) => setTimeout(resolve, 2_000)); // room for a late duplicate to show
      const missing = [...committed].filter((change) => !receivedChanges(receiver).has(change));
      console.info(`webhooks, kill -9 during a burst (${backend}):`, {
        committedChanges: committed.size,
        deliveredBeforeKill,
        received: receiver.received.length,
        distinctWebhookIds: receiver.countsById().size,
        duplicates: receiver.duplicates(),
        missing: missing.length,
        unverified: receiver.unverified,
      });
      expect(missing).toEqual([]);
      expect(receiver.unverified).toBe(0);
      // A duplicate can only be a delivery whose attempt the kill cut short.
      expect(receiver.duplicates()).toBeLessThanOrEqual(AT_ONCE * 4);
    },
  );

  it(`two instances on PostgreSQL, ${CHANGES} changes across both: every one delivered, none twice`, async () => {
    database = await createTestPostgresSchema();
    const receiver = await new WebhookReceiver().start();
    receivers.push(receiver);
    const env = {
      ...WEBHOOK_ENV,
      ...database.env,
      DATABASE_POOL_SIZE: '6',
      ADMIN_KEY_PATH: join(await servers.tempDir(), 'admin.key'),
    };
    const [a, b] = await Promise.all([servers.start(env), servers.start(env)]);
    const { accessToken } = await loginAsAdmin(a!, await readAdminKeyFile(env.ADMIN_KEY_PATH));
    await createEndpoint(a!, accessToken, receiver);
    const { committed } = await burst([a!, b!], accessToken);
    await eventually(() => [...committed].every((change) => receivedChanges(receiver).has(change)), 60_000);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    console.info('webhooks, two instances (PostgreSQL):', {
      committedChanges: committed.size,
      received: receiver.received.length,
      duplicates: receiver.duplicates(),
      unverified: receiver.unverified,
    });
    expect(receiver.countsById().size).toBe(receiver.received.length);
    expect(receiver.duplicates()).toBe(0);
    expect(receiver.unverified).toBe(0);
    expect(receivedChanges(receiver).size).toBe(committed.size);
  });
});
