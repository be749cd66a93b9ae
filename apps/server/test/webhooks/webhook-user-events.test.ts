import { SECOND_FACTOR_RULES, SYSTEM } from '@uas/domain';
import { generateSync } from 'otplib';
import { usersDocument } from '@uas/adapters-http/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { accept, Inviter, sendTo } from '../invitations/invitation-support';
import { AdminClient } from '../support/admin-client';
import { eventually } from '../support/eventually';
import { BACKENDS, startTestApplication, type TestApplication } from '../support/test-application';
import { createEndpoint } from '../support/webhook-endpoint';
import { WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver';

/** The receiver is on loopback and speaks http: the operator's settings allow both, as a test must. */
const ENV = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' };
const PASSWORD = 'webhook-events-password-1';

const userOf = (delivery: ReceivedWebhook) =>
  delivery.payload.data.user as { id: string; version: number | null } | null;
const bySequence = (received: readonly ReceivedWebhook[]) =>
  [...received].sort((a, b) => a.sequence! - b.sequence! || a.id.localeCompare(b.id));

/** How many deliveries the endpoint's log holds. */
async function logTotal(client: AdminClient, webhookId: string): Promise<number> {
  const log = await client.get(`/v1/admin/webhooks/${webhookId}/deliveries`, await client.adminToken());
  return ((await log.json()) as { meta: { total: number } }).meta.total;
}

/** Every change to a user yields its event, whatever made it: the paths besides the admin API's. */
describe.each(BACKENDS)('webhook events of every path that changes a user, on %s', (backend) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function start(): Promise<{
    t: TestApplication;
    client: AdminClient;
    receiver: WebhookReceiver;
    webhookId: string;
  }> {
    const t = await startTestApplication(backend, ENV);
    cleanups.push(() => t.close());
    const receiver = await new WebhookReceiver().start();
    cleanups.push(() => receiver.stop());
    const client = new AdminClient(t);
    return { t, client, receiver, webhookId: await createEndpoint(client, receiver) };
  }

  it('an import sends user.created for each user it creates and user.updated for each it updates, under webhook-ids a replay keeps', async () => {
    const { t, client, receiver, webhookId } = await start();
    const records = (names: string[]) =>
      names.map((name, n) => ({ line: n + 1, value: { email: `${name}@example.com`, name } }));
    const first = Array.from({ length: 25 }, (_, n) => `imported-${n}`);
    const created = await t.useCases.transfer.import(records(first), {
      onConflict: 'skip',
      dryRun: false,
      batchSize: 10,
    });
    expect(created.created).toBe(25);
    await eventually(() => receiver.received.length >= 25, 15_000);
    const creations = receiver.received.filter((delivery) => delivery.type === 'user.created');
    expect(creations).toHaveLength(25);
    // One per user, each at its batch's place in the trail (three batches), at the version it made.
    expect(new Set(creations.map((delivery) => userOf(delivery)!.id)).size).toBe(25);
    expect(new Set(creations.map((delivery) => delivery.sequence)).size).toBe(3);
    expect(creations.every((delivery) => userOf(delivery)!.version === 1)).toBe(true);

    const renamed = await t.useCases.transfer.import(
      records(first.slice(0, 3)).map(({ line, value }) => ({
        line,
        value: { ...value, name: `${value.name} renamed` },
      })),
      { onConflict: 'update', dryRun: false },
    );
    expect(renamed.updated).toBe(3);
    await eventually(() => receiver.received.length >= 28, 15_000);
    const updates = receiver.received.filter((delivery) => delivery.type === 'user.updated');
    expect(updates.map((delivery) => userOf(delivery)!.version)).toEqual([2, 2, 2]);
    expect(receiver.duplicates()).toBe(0);
    expect(receiver.unverified).toBe(0);

    // A replay of everything sends each event again under the webhook-id it had (once each
    // attempt is recorded: one in flight is left to its attempt).
    await eventually(async () => {
      const log = await client.get(
        `/v1/admin/webhooks/${webhookId}/deliveries?page[size]=100`,
        await client.adminToken(),
      );
      const { data } = (await log.json()) as { data: { attributes: { status: string } }[] };
      return data.every((delivery) => delivery.attributes.status === 'succeeded');
    }, 5_000);
    const since = bySequence(receiver.received)[0]!.sequence!;
    expect(await t.useCases.webhookDeliveries.replaySince(SYSTEM, webhookId, since)).toBe(28);
    await eventually(() => receiver.received.length >= 56, 15_000);
    expect([...receiver.countsById().values()].every((count) => count === 2)).toBe(true);
    expect(receiver.countsById().size).toBe(28);
  });

  it('an invitation sends user.created when it is made, user.updated when accepted, user.deleted when revoked with its user', async () => {
    const { t, client, receiver, webhookId } = await start();
    const send = sendTo(t.app);
    const token = await client.adminToken();
    const inviter = new Inviter(send, token);
    const accepted = await inviter.invited('invitee@example.com');
    expect((await accept(send, accepted.token, PASSWORD)).status).toBe(204);
    const revoked = await inviter.invited('withdrawn@example.com');
    expect((await inviter.revoke(revoked.id)).status).toBe(204);
    // Given a password by an admin meanwhile, the invitee stays when the invitation is revoked.
    const kept = await inviter.invited('kept@example.com');
    const password = usersDocument({ password: 'set-by-an-admin-1' }, { id: kept.userId });
    expect((await client.send('PATCH', `/v1/admin/users/${kept.userId}`, password, token)).status).toBe(200);
    expect((await inviter.revoke(kept.id)).status).toBe(204);
    const last = await client.createUser({ email: 'last@example.com' });

    await eventually(() => receiver.received.some((delivery) => userOf(delivery)?.id === last.id), 15_000);
    await eventually(() => receiver.received.length >= 7, 5_000);
    const events = bySequence(receiver.received).map((delivery) => [delivery.type, userOf(delivery)?.id]);
    expect(events).toEqual([
      ['user.created', accepted.userId],
      ['user.updated', accepted.userId],
      ['user.created', revoked.userId],
      ['user.deleted', revoked.userId],
      ['user.created', kept.userId],
      ['user.updated', kept.userId],
      ['user.created', last.id],
    ]);
    // The dispatcher made every delivery up to the last event's: none for the invitee who stayed.
    expect(await logTotal(client, webhookId)).toBe(7);
    const acceptance = bySequence(receiver.received)[1]!.payload.data;
    expect(acceptance).toMatchObject({
      user: { id: accepted.userId, version: 2 },
      changes: { password: { before: 'changed', after: 'changed' } },
    });
    expect(receiver.received.map((delivery) => delivery.body).join('\n')).not.toMatch(/\$2[aby]\$|password-1/);
  });

  it("a factor's events name the user whose factor it is; an administrator's factor sends nothing", async () => {
    const { t, client, receiver, webhookId } = await start();
    const user = await client.createUser({ email: 'factor@example.com', password: PASSWORD });
    const session = await client.userSession('factor@example.com', PASSWORD);
    const who = await t.useCases.userAuth.authenticate(session.accessToken);
    const codeAt = (secret: string) => generateSync({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) });
    const { factor, totp } = await t.useCases.factors.enrol(who, 'totp');
    await t.useCases.factors.verify(who, factor.id, { code: codeAt(totp!.secret) });
    t.clock.advance(SECOND_FACTOR_RULES.totp.periodSeconds);
    await t.useCases.factors.remove(who, factor.id, { code: codeAt(totp!.secret) });

    const admin = await t.useCases.adminAuth.authenticate(await client.adminToken());
    const adminFactor = await t.useCases.factors.enrol(admin, 'totp');
    await t.useCases.factors.verify(admin, adminFactor.factor.id, { code: codeAt(adminFactor.totp!.secret) });
    await client.createUser({ email: 'after@example.com' }); // the last event: all before it are sent first

    await eventually(() => receiver.received.length >= 4, 15_000);
    // The dispatcher made every delivery up to the last event's: none of the administrator's factor.
    expect(await logTotal(client, webhookId)).toBe(4);
    const events = bySequence(receiver.received).map((delivery) => [delivery.type, userOf(delivery)?.id]);
    expect(events.slice(0, 3)).toEqual([
      ['user.created', user.id],
      ['factor.activated', user.id],
      ['factor.removed', user.id],
    ]);
    expect(events.slice(3).map(([type]) => type)).toEqual(['user.created']);
  });
});
