import postgres from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { usersDocument } from '@uas/adapters-http/testing';
import { AdminClient } from '../support/admin-client';
import { eventually } from '../support/eventually';
import { BACKENDS, startTestApplication, type TestApplication } from '../support/test-application';
import { WEBHOOK_ENDPOINT_CONCURRENCY } from '../../src/webhook-worker';
import { createEndpoint } from '../support/webhook-endpoint';
import { WebhookReceiver } from '../support/webhook-receiver';

/** The receiver is on loopback and speaks http: the operator's settings allow both, as a test must. */
const ENV = {
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
  WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1,1,1,1',
};

interface Delivery {
  id: string;
  attributes: {
    event_type: string;
    sequence: number | null;
    status: string;
    attempts: number;
    last_error: string | null;
    last_status: number | null;
  };
}

async function deliveries(client: AdminClient, webhookId: string): Promise<Delivery[]> {
  const response = await client.get(
    `/v1/admin/webhooks/${webhookId}/deliveries?page[size]=100`,
    await client.adminToken(),
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: Delivery[] }).data;
}

describe.each(BACKENDS)('webhook delivery on %s', (backend) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function start(
    env: Record<string, string> = {},
  ): Promise<{ t: TestApplication; client: AdminClient; receiver: WebhookReceiver }> {
    const t = await startTestApplication(backend, { ...ENV, ...env });
    cleanups.push(() => t.close());
    const receiver = await new WebhookReceiver().start();
    cleanups.push(() => receiver.stop());
    return { t, client: new AdminClient(t), receiver };
  }

  it('sends every change to a user, signed (verified with standardwebhooks), with its sequence and the user version, never a password or hash', async () => {
    const { client, receiver } = await start();
    const webhookId = await createEndpoint(client, receiver);
    const token = await client.adminToken();
    const user = await client.createUser({ email: 'ada@example.com', name: 'Ada', password: 'a secret password 1' });
    const patch = usersDocument({ name: 'Ada Lovelace', password: 'another secret 2' }, { id: user.id });
    expect((await client.send('PATCH', `/v1/admin/users/${user.id}`, patch, token)).status).toBe(200);
    const deactivate = usersDocument({ active: 0 }, { id: user.id });
    expect((await client.send('PATCH', `/v1/admin/users/${user.id}`, deactivate, token)).status).toBe(200);
    expect((await client.delete(`/v1/admin/users/${user.id}`, token)).status).toBe(204);

    await eventually(() => receiver.received.length >= 4, 15_000);
    expect(receiver.unverified).toBe(0);
    // Order is not promised: a receiver orders by the event's number.
    const inOrder = bySequence(receiver.received);
    expect(inOrder.map((delivery) => delivery.type)).toEqual([
      'user.created',
      'user.updated',
      'user.deactivated',
      'user.deleted',
    ]);
    expect(inOrder.map((delivery) => (delivery.payload.data.user as { version: number }).version)).toEqual([
      1, 2, 3, 3,
    ]);
    const updated = inOrder[1]!.payload.data;
    expect(updated).toMatchObject({
      user: { id: user.id, version: 2 },
      changes: { name: { before: 'Ada', after: 'Ada Lovelace' }, password: { before: 'changed', after: 'changed' } },
    });
    const bodies = receiver.received.map((delivery) => delivery.body).join('\n');
    expect(bodies).not.toMatch(/secret password|another secret|\$2[aby]\$/);
    expect(receiver.duplicates()).toBe(0);

    // The receiver answers before the attempt's outcome is recorded.
    await eventually(
      async () => (await deliveries(client, webhookId)).every((d) => d.attributes.status !== 'pending'),
      5_000,
    );
    const log = await deliveries(client, webhookId);
    expect(log.map((delivery) => delivery.attributes.status)).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
      'succeeded',
    ]);
    expect(new Set(log.map((delivery) => delivery.id))).toEqual(
      new Set(receiver.received.map((delivery) => delivery.id)),
    );
  });

  it('counts attempts by outcome and reports the backlog on GET /metrics', async () => {
    const METRICS_TOKEN = 'a-metrics-token-that-is-long-enough-0123';
    const { t, client, receiver } = await start({ METRICS_TOKEN });
    await createEndpoint(client, receiver);
    await client.createUser({ email: 'counted@example.com' });
    await eventually(() => receiver.received.length >= 1, 15_000);
    let text = '';
    await eventually(async () => {
      const response = await t.app.request('/metrics', { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
      text = await response.text();
      return /^uas_webhook_attempts_total\{outcome="succeeded"\} 1$/m.test(text);
    }, 5_000);
    expect(text).toMatch(/^uas_webhook_attempts_total\{outcome="failed"\} 0$/m);
    expect(text).toMatch(/^uas_webhook_deliveries_pending \d+$/m);
    expect(text).toMatch(/^uas_webhook_delivery_lag_seconds \d+(\.\d+)?$/m);
  });

  it('replays one delivery under its webhook-id, every event since a number, and sends a test event', async () => {
    const { client, receiver } = await start();
    const webhookId = await createEndpoint(client, receiver);
    const token = await client.adminToken();
    for (const n of [1, 2, 3]) await client.createUser({ email: `user-${n}@example.com` });
    await eventually(() => receiver.received.length >= 3, 15_000);
    const [first, second, third] = bySequence(receiver.received) as [ReceivedLike, ReceivedLike, ReceivedLike];
    // The receiver answers before the attempt is recorded; a replay of one still in flight is left to it.
    await eventually(
      async () => (await deliveries(client, webhookId)).every((d) => d.attributes.status !== 'pending'),
      5_000,
    );

    const replay = await client.send(
      'POST',
      `/v1/admin/webhooks/${webhookId}/deliveries/${first.id}/replay`,
      {},
      token,
    );
    expect(replay.status).toBe(202);
    await eventually(() => receiver.received.length >= 4, 15_000);
    expect(receiver.received[3]!.id).toBe(first.id);
    expect(receiver.received[3]!.body).toBe(first.body); // the same bytes

    const since = await client.send(
      'POST',
      `/v1/admin/webhooks/${webhookId}/replay`,
      { since: second.sequence },
      token,
    );
    expect(since.status).toBe(202);
    expect(await since.json()).toEqual({ meta: { queued: 2 } });
    await eventually(() => receiver.received.length >= 6, 15_000);
    expect(
      receiver.received
        .slice(4)
        .map((delivery) => delivery.id)
        .sort(),
    ).toEqual([second.id, third.id].sort());

    expect((await client.send('POST', `/v1/admin/webhooks/${webhookId}/test`, {}, token)).status).toBe(202);
    await eventually(() => receiver.received.some((delivery) => delivery.type === 'webhook.test'), 15_000);
    expect(receiver.unverified).toBe(0);

    const missing = await client.send(
      'POST',
      `/v1/admin/webhooks/${webhookId}/deliveries/msg_nothing/replay`,
      {},
      token,
    );
    expect(missing.status).toBe(404);
    for (const [since, detail] of [
      ['soon', 'since must be a whole number'],
      [0, 'since must be 1 or more'],
      [1.5, 'since must be a whole number'],
      [1e300, `since must be at most ${Number.MAX_SAFE_INTEGER}`],
      [1e20, `since must be at most ${Number.MAX_SAFE_INTEGER}`],
    ] as const) {
      const badSince = await client.send('POST', `/v1/admin/webhooks/${webhookId}/replay`, { since }, token);
      expect(badSince.status).toBe(422);
      expect(await badSince.json()).toMatchObject({
        errors: [{ source: { pointer: '/since' }, detail }],
      });
    }
  });

  it('a receiver that hangs holds back only its own deliveries: another endpoint gets each change while the hanging attempt still runs', async () => {
    const { client, receiver } = await start();
    // Takes each request and never answers, until the sender gives up (its 10 s timeout).
    const { createServer } = await import('node:http');
    let hung = 0;
    let givenUp = 0;
    const hanging = createServer((req, res) => {
      hung += 1;
      req.resume();
      res.on('close', () => (givenUp += 1));
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    cleanups.push(async () => {
      hanging.closeAllConnections();
      await new Promise((resolve) => hanging.close(resolve));
    });
    const slowUrl = `http://127.0.0.1:${(hanging.address() as { port: number }).port}/hooks`;
    await createEndpoint(client, receiver, slowUrl);
    await createEndpoint(client, receiver);

    await client.createUser({ email: 'first@example.com' });
    await eventually(() => hung >= 1 && receiver.received.length >= 1, 5_000);
    // Each later change reaches the answering endpoint while the hanging attempts still run.
    const LATER = 3;
    for (let n = 0; n < LATER; n += 1) await client.createUser({ email: `later-${n}@example.com` });
    await eventually(() => receiver.received.length >= 1 + LATER, 5_000);
    expect(givenUp).toBe(0);
    expect(receiver.duplicates()).toBe(0);
    expect(receiver.unverified).toBe(0);
  });

  it('a hanging receiver with more due than every slot holds its share of them only: another endpoint is still served', async () => {
    const { t, client, receiver } = await start();
    const { createServer } = await import('node:http');
    let hung = 0;
    let givenUp = 0;
    const hanging = createServer((req, res) => {
      hung += 1;
      req.resume();
      res.on('close', () => (givenUp += 1));
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    cleanups.push(async () => {
      hanging.closeAllConnections();
      await new Promise((resolve) => hanging.close(resolve));
    });
    await createEndpoint(client, receiver, `http://127.0.0.1:${(hanging.address() as { port: number }).port}/hooks`);
    // More deliveries due to the hanging endpoint than the instance has slots (64).
    const records = Array.from({ length: 80 }, (_, n) => ({ line: n + 1, value: { email: `bulk-${n}@example.com` } }));
    expect((await t.useCases.transfer.import(records, { onConflict: 'skip', dryRun: false })).created).toBe(80);
    await eventually(() => hung >= WEBHOOK_ENDPOINT_CONCURRENCY, 5_000);

    await createEndpoint(client, receiver);
    await client.createUser({ email: 'served@example.com' });
    await eventually(() => receiver.received.length >= 1, 5_000);
    // Served while every hanging attempt still runs, and no more of them were started than its share.
    expect(givenUp).toBe(0);
    expect(hung).toBe(WEBHOOK_ENDPOINT_CONCURRENCY);
  });

  it.runIf(backend === 'postgres')(
    'attempts sent but not yet recorded hold their slots: while the writes are stuck, no more than the share is sent (a crash then sends no more than those twice)',
    async () => {
      const { t, client, receiver } = await start();
      const webhookId = await createEndpoint(client, receiver);
      await receiver.stop();
      const CHANGES = 3 * WEBHOOK_ENDPOINT_CONCURRENCY;
      const records = Array.from({ length: CHANGES }, (_, n) => ({
        line: n + 1,
        value: { email: `unrecorded-${n}@example.com` },
      }));
      expect((await t.useCases.transfer.import(records, { onConflict: 'skip', dryRun: false })).created).toBe(CHANGES);
      // Every delivery tried once and its failure recorded (the endpoint's failing_since set).
      await eventually(
        async () => (await deliveries(client, webhookId)).filter((d) => d.attributes.attempts >= 1).length === CHANGES,
        15_000,
      );
      await eventually(
        async () => (await deliveries(client, webhookId)).every((d) => d.attributes.last_error !== null),
        15_000,
      );
      // A recording writes the endpoint's row; a claim only reads it: this lock holds the recordings alone.
      const sql = postgres(t.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
      const locked = await sql.reserve();
      cleanups.push(async () => {
        locked.release();
        await sql.end();
      });
      await locked`begin`;
      await locked`lock table ${sql(t.env.DATABASE_SCHEMA!)}.webhooks in share mode`;

      await receiver.start(); // on the same port
      await eventually(() => {
        t.clock.advance(2); // past the schedule's wait (jitter included)
        return receiver.received.length >= WEBHOOK_ENDPOINT_CONCURRENCY;
      }, 20_000);
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // room for more to show
      expect(receiver.received.length).toBe(WEBHOOK_ENDPOINT_CONCURRENCY);

      await locked`commit`;
      await eventually(() => {
        t.clock.advance(2);
        return receiver.countsById().size >= CHANGES;
      }, 20_000);
      expect(receiver.duplicates()).toBe(0);
    },
  );

  it('a receiver down for a while gets everything once back: retries on the schedule, nothing twice', async () => {
    const { t, client, receiver } = await start();
    const webhookId = await createEndpoint(client, receiver);
    await receiver.stop();
    const CHANGES = 20;
    for (let n = 0; n < CHANGES; n += 1) await client.createUser({ email: `down-${n}@example.com` });
    await eventually(
      async () =>
        (await deliveries(client, webhookId)).filter(
          (d) => d.attributes.attempts >= 1 && d.attributes.last_error !== null,
        ).length === CHANGES,
      15_000,
    );
    const failed = await deliveries(client, webhookId);
    expect(failed.every((delivery) => delivery.attributes.status === 'pending')).toBe(true);
    expect(failed[0]!.attributes.last_error).toBe('connection refused');

    await receiver.start(); // on the same port
    await eventually(() => {
      t.clock.advance(2); // past the schedule's wait (jitter included)
      return receiver.received.length >= CHANGES;
    }, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    console.info(`receiver down on ${backend}:`, {
      changes: CHANGES,
      delivered: receiver.countsById().size,
      duplicates: receiver.duplicates(),
    });
    expect(receiver.countsById().size).toBe(CHANGES);
    expect(receiver.duplicates()).toBe(0);
    expect(receiver.unverified).toBe(0);
  });

  it('a receiver answering 410 disables its endpoint (disabled_reason gone); a 5xx is retried, then failed after the last try', async () => {
    const { t, client, receiver } = await start({ WEBHOOK_RETRY_SCHEDULE: '1,1' });
    await receiver.stop();
    const { createServer } = await import('node:http');
    let answer = 503;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(answer).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
    const webhookId = await createEndpoint(client, receiver, url);
    await client.createUser({ email: 'retried@example.com' });
    await eventually(async () => {
      t.clock.advance(2);
      return (await deliveries(client, webhookId))[0]?.attributes.status === 'failed';
    }, 15_000);
    const [failed] = await deliveries(client, webhookId);
    expect(failed!.attributes).toMatchObject({ status: 'failed', attempts: 3, last_status: 503 });
    expect(failed!.attributes.last_error).toMatch(/gave up after 3 attempts/);

    answer = 410;
    await client.createUser({ email: 'gone@example.com' });
    const token = await client.adminToken();
    await eventually(async () => {
      const response = await client.get(`/v1/admin/webhooks/${webhookId}`, token);
      const { data } = (await response.json()) as {
        data: { attributes: { enabled: boolean; disabled_reason: string | null } };
      };
      return data.attributes.enabled === false && data.attributes.disabled_reason === 'gone';
    }, 15_000);
  });

  it('without WEBHOOK_ALLOW_PRIVATE_ADDRESSES, an endpoint whose name resolves to loopback is refused at connect time and retried (a name may resolve elsewhere later); the log names no address; nothing is sent', async () => {
    const { client, receiver } = await start({ WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'false' });
    const webhookId = await createEndpoint(client, receiver, `http://localhost:${receiver.port}/hooks`);
    await client.createUser({ email: 'ssrf@example.com' });
    await eventually(async () => (await deliveries(client, webhookId))[0]?.attributes.last_error != null, 15_000);
    const [refused] = await deliveries(client, webhookId);
    expect(refused!.attributes).toMatchObject({ status: 'pending', last_status: null });
    expect(refused!.attributes.last_error).toMatch(/^address not allowed/);
    expect(refused!.attributes.last_error).not.toMatch(/127|::1|loopback/);
    expect(receiver.received).toEqual([]);
  });

  it('an http endpoint registered while WEBHOOK_ALLOW_HTTP was set gets nothing after a restart without it: the delivery fails at once, saying why', async () => {
    const before = await start();
    const webhookId = await createEndpoint(before.client, before.receiver);
    await before.t.closeDatabase(); // the restart: the same database, under the new setting
    const { client } = await start({ ...before.t.env, WEBHOOK_ALLOW_HTTP: 'false' });
    await client.createUser({ email: 'plain-http@example.com' });
    await eventually(async () => (await deliveries(client, webhookId))[0]?.attributes.status === 'failed', 15_000);
    const [refused] = await deliveries(client, webhookId);
    expect(refused!.attributes).toMatchObject({
      attempts: 1,
      last_status: null,
      last_error: 'http not allowed (set WEBHOOK_ALLOW_HTTP=true)',
    });
    expect(before.receiver.received).toEqual([]);
  });
});

type ReceivedLike = WebhookReceiver['received'][number];

const bySequence = (received: readonly ReceivedLike[]) => [...received].sort((a, b) => a.sequence! - b.sequence!);
