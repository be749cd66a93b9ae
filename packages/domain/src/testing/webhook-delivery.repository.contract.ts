import { describe, expect, it } from './test-api.ts';
import { SYSTEM } from '../audit/audit-event.ts';
import { auditRecord, userTarget } from '../audit/audit-records.ts';
import type { Repositories } from '../repositories.ts';
import type { WebhookAttemptOutcome, WebhookSettlement } from '../webhooks/webhook-delivery.repository.ts';
import { importedUsersChanges } from '../transfer/imported-users.ts';
import type { User } from '../users/user.ts';
import { DISPATCH_DELIVERIES_MAX, deliveriesOf } from '../webhooks/webhook-dispatcher.ts';
import { useFreshRepositories, type OpenRepositories, type RepositoryHarness } from './contract-harness.ts';
import { sampleWebhook } from './webhook.repository.contract.ts';

const T0 = new Date('2027-06-01T10:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

/** Rounds of each concurrency check: a race that is lost sometimes shows in a few of them. */
const ROUNDS = 50;

let made = 0;
/** No endpoint is short of room: a claim is bounded by its limit alone. */
const UNSHARED = { max: 1000, inFlight: new Map<string, number>() };

const nextId = () => {
  made += 1;
  return `26200000-0000-4000-8000-${made.toString(16).padStart(12, '0')}`;
};

const failure = (seconds: number, next: Date | null): WebhookAttemptOutcome => ({
  status: next ? 'pending' : 'failed',
  nextAttempt: next,
  responseStatus: 500,
  error: 'the receiver answered 500',
  durationMs: 12,
  at: at(seconds),
  gone: false,
});
const success = (seconds: number): WebhookAttemptOutcome => ({
  status: 'succeeded',
  nextAttempt: null,
  responseStatus: 204,
  error: null,
  durationMs: 7,
  at: at(seconds),
  gone: false,
});

/** The behaviour every WebhookDeliveryRepository promises. */
export function describeWebhookDeliveryRepositoryContract(backend: string, open: OpenRepositories): void {
  describe(`WebhookDeliveryRepository contract (${backend})`, () => {
    let repositories: Repositories;
    let another: Repositories;
    let harness: RepositoryHarness;
    useFreshRepositories(open, (opened, second, opening) => {
      repositories = opened;
      another = second;
      harness = opening;
    });

    const endpoint = async (events: readonly ('*' | 'user.created')[] = ['*']) => {
      const webhook = sampleWebhook({ events: [...events] as never });
      const audit = auditRecord(nextId(), T0, SYSTEM, 'webhook.created', { type: 'webhooks', id: webhook.id });
      return repositories.webhooks.create(webhook, audit);
    };
    const change = (action: 'user.created' | 'users.exported' = 'user.created') =>
      repositories.audit.append(
        auditRecord(nextId(), T0, SYSTEM, action, userTarget(nextId()), { version: { before: null, after: 1 } }),
      );
    const dispatchAll = async (id: string, limit = 100) => {
      let read = 0;
      for (let batch = -1; batch !== 0; read += batch)
        batch = await repositories.webhookDeliveries.dispatch(id, limit, deliveriesOf);
      return read;
    };
    /** Settles one claim, as a round of one. */
    const settleOne = async (
      claim: WebhookSettlement['claim'],
      outcome: WebhookAttemptOutcome,
      failingBefore: Date,
    ): Promise<boolean | undefined> =>
      (await repositories.webhookDeliveries.settle([{ claim, outcome }], failingBefore))[0];
    const list = async (id: string) =>
      (await repositories.webhookDeliveries.list(id, { page: 1, size: 100 })).deliveries;

    it('dispatch turns the events after the cursor into deliveries and moves the cursor past them, in batches', async () => {
      const webhook = await endpoint();
      const created = [await change(), await change()];
      await change('users.exported'); // not in the catalogue: read, nothing made
      const third = await change();
      // The endpoint's own `webhook.created` event comes after its cursor too: read, nothing made.
      expect(await repositories.webhookDeliveries.dispatch(webhook.id, 2, deliveriesOf)).toBe(2);
      expect(await dispatchAll(webhook.id)).toBe(3);
      expect(await dispatchAll(webhook.id)).toBe(0);
      expect((await repositories.webhooks.get(webhook.id))?.cursor).toBe(third.seq);
      const made = await list(webhook.id);
      expect(made.map((delivery) => delivery.seq).sort()).toEqual([...created, third].map((event) => event.seq).sort());
      expect(made.every((delivery) => delivery.status === 'pending' && delivery.attempts === 0)).toBe(true);
    });

    it('an event whose write was still open while later events were dispatched is delivered once it commits', async () => {
      // Where writes run side by side (PostgreSQL): the fake and SQLite commit one at a time.
      if (!harness.holdAuditedWrite) return;
      const webhook = await endpoint();
      const slow = auditRecord(nextId(), T0, SYSTEM, 'user.created', userTarget(nextId()), {
        version: { before: null, after: 1 },
      });
      const commitSlow = await harness.holdAuditedWrite(slow);
      const quick = await change().catch(async (error: unknown) => {
        await commitSlow();
        throw error;
      });
      try {
        await dispatchAll(webhook.id);
        expect((await list(webhook.id)).map((delivery) => delivery.seq)).toEqual([quick.seq]);
      } finally {
        await commitSlow();
      }
      // Reading the chain's state gives the committed event its place: after the cursor.
      await repositories.audit.state();
      const [late] = await repositories.audit.chain(quick.seq, 10);
      expect(late?.id).toBe(slow.id);
      expect(await dispatchAll(webhook.id)).toBe(1);
      const made = (await list(webhook.id)).map((delivery) => delivery.seq);
      expect(made).toHaveLength(2);
      expect(new Set(made)).toEqual(new Set([quick.seq, late!.seq]));
    });

    it(`dispatch of one endpoint on two connections at once makes each delivery once, ${ROUNDS} rounds`, async () => {
      const made: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const webhook = await endpoint();
        for (let n = 0; n < 6; n += 1) await change();
        const drain = async (store: Repositories) => {
          for (let batch = -1; batch !== 0; )
            batch = await store.webhookDeliveries.dispatch(webhook.id, 2, deliveriesOf);
        };
        await Promise.all([drain(repositories), drain(another)]);
        await dispatchAll(webhook.id);
        const deliveries = await list(webhook.id);
        made.push(new Set(deliveries.map((delivery) => delivery.seq)).size === 6 ? deliveries.length : -1);
      }
      // 6 each: none lost (fewer), none made twice (more).
      expect(made.filter((count) => count !== 6)).toEqual([]);
    });

    it(`claims on two connections at once never share a delivery nor leave one unclaimed, ${ROUNDS} rounds`, async () => {
      const webhook = await endpoint();
      const shared: number[] = [];
      const lost: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        for (let n = 0; n < 4; n += 1) await change();
        await dispatchAll(webhook.id);
        const now = at(round * 100);
        const [mine, theirs] = await Promise.all([
          repositories.webhookDeliveries.claim(now, at(round * 100 + 30), 3, UNSHARED),
          another.webhookDeliveries.claim(now, at(round * 100 + 30), 3, UNSHARED),
        ]);
        const ids = [...mine, ...theirs].map((claim) => claim.id);
        shared.push(ids.length - new Set(ids).size);
        lost.push(4 - new Set(ids).size);
        for (const claim of [...mine, ...theirs]) await settleOne(claim, success(round * 100 + 1), at(-432_000));
      }
      expect(shared.filter(Boolean)).toEqual([]);
      expect(lost.filter(Boolean)).toEqual([]);
    });

    it('a claim holds its deliveries until the lease ends; a settle after a later claim took over changes nothing', async () => {
      const webhook = await endpoint();
      for (let n = 0; n < 3; n += 1) await change();
      await dispatchAll(webhook.id);
      const mine = await repositories.webhookDeliveries.claim(at(1), at(31), 12, UNSHARED);
      expect(mine).toHaveLength(3);
      expect(mine[0]).toMatchObject({ url: webhook.url, attempt: 1, secrets: [webhook.secret] });
      expect(await repositories.webhookDeliveries.claim(at(2), at(32), 50, UNSHARED)).toEqual([]); // held

      const claim = mine[0]!;
      const retaken = await repositories.webhookDeliveries.claim(at(40), at(70), 50, UNSHARED); // leases over
      expect(retaken.find((again) => again.id === claim.id)?.attempt).toBe(2);
      expect(await settleOne(claim, success(41), at(-432_000))).toBe(false);
      const current = retaken.find((again) => again.id === claim.id)!;
      expect(await settleOne(current, success(41), at(-432_000))).toBe(true);
      expect((await list(webhook.id)).find((delivery) => delivery.id === claim.id)).toMatchObject({
        status: 'succeeded',
        attempts: 2,
        lastStatus: 204,
        delivered: at(41),
      });
    });

    it("a claim takes of each endpoint no more than its room (the share less those in flight), the others' oldest beside", async () => {
      const slow = await endpoint();
      for (let n = 0; n < 5; n += 1) await change();
      const fast = await endpoint();
      for (let n = 0; n < 2; n += 1) await change();
      await dispatchAll(slow.id);
      await dispatchAll(fast.id);
      const share = { max: 3, inFlight: new Map([[slow.id, 1]]) };
      const claimed = await repositories.webhookDeliveries.claim(at(1), at(31), 10, share);
      const of = (id: string) => claimed.filter((claim) => claim.webhookId === id).length;
      expect([of(slow.id), of(fast.id)]).toEqual([2, 2]);
      // The slow endpoint at its share: nothing more of it, however much is due and free.
      const full = { max: 3, inFlight: new Map([[slow.id, 3]]) };
      expect(await repositories.webhookDeliveries.claim(at(2), at(32), 10, full)).toEqual([]);
      const next = await repositories.webhookDeliveries.claim(at(2), at(32), 10, UNSHARED);
      expect(next.map((claim) => claim.webhookId)).toEqual(Array(5).fill(slow.id)); // 7 due, 2 taken
    });

    it('a claim carries the previous secret beside the current one until its time is up', async () => {
      const webhook = await endpoint();
      const rotated = { keyId: 'key-2', ciphertext: 'sealed-new' };
      const audit = auditRecord(nextId(), T0, SYSTEM, 'webhook.secret_rotated', { type: 'webhooks', id: webhook.id });
      await repositories.webhooks.rotateSecret(webhook.id, { secret: rotated, previousUntil: at(100), now: T0 }, audit);
      await change();
      await change();
      await dispatchAll(webhook.id);
      const [early] = await repositories.webhookDeliveries.claim(at(1), at(31), 1, UNSHARED);
      expect(early!.secrets).toEqual([rotated, webhook.secret]);
      const [late] = await repositories.webhookDeliveries.claim(at(101), at(131), 1, UNSHARED);
      expect(late!.secrets).toEqual([rotated]);
    });

    it('a failure marks the endpoint failing, then disables it once it has failed since before the limit; 410 disables it as gone', async () => {
      const webhook = await endpoint();
      await change();
      await dispatchAll(webhook.id);
      const [first] = await repositories.webhookDeliveries.claim(at(1), at(31), 10, UNSHARED);
      await settleOne(first!, failure(2, at(100)), at(-432_000));
      expect(await repositories.webhooks.get(webhook.id)).toMatchObject({ enabled: true, failingSince: at(2) });
      const [second] = await repositories.webhookDeliveries.claim(at(100), at(130), 10, UNSHARED);
      await settleOne(second!, failure(101, at(200)), at(3));
      expect(await repositories.webhooks.get(webhook.id)).toMatchObject({ enabled: false, disabledReason: 'failing' });
      expect(await repositories.webhookDeliveries.claim(at(300), at(330), 10, UNSHARED)).toEqual([]); // disabled: nothing claimed

      const other = await endpoint();
      await change();
      await dispatchAll(other.id);
      const [claim] = await repositories.webhookDeliveries.claim(at(1), at(31), 10, UNSHARED);
      await settleOne(claim!, { ...failure(2, null), responseStatus: 410, gone: true }, at(-432_000));
      expect(await repositories.webhooks.get(other.id)).toMatchObject({ enabled: false, disabledReason: 'gone' });
    });

    it('replays one delivery under its id, and every event since a number, creating those it lacked', async () => {
      const before = await change(); // before the endpoint: no delivery
      const webhook = await endpoint();
      const later = [await change(), await change()];
      await dispatchAll(webhook.id);
      const claimed = await repositories.webhookDeliveries.claim(at(1), at(31), 10, UNSHARED);
      for (const claim of claimed) await settleOne(claim, success(2), at(-432_000));
      const replayed = auditRecord(nextId(), at(3), SYSTEM, 'webhook.replayed', { type: 'webhooks', id: webhook.id });
      const [one] = claimed;
      expect(await repositories.webhookDeliveries.replay(webhook.id, one!.id, at(3), replayed)).toBe(true);
      expect(await repositories.webhookDeliveries.replay(webhook.id, 'msg_none', at(3), replayed)).toBe(false);
      expect((await list(webhook.id)).find((delivery) => delivery.id === one!.id)).toMatchObject({
        status: 'pending',
        attempts: 0,
      });

      const again = auditRecord(nextId(), at(4), SYSTEM, 'webhook.replayed', { type: 'webhooks', id: webhook.id });
      expect(await repositories.webhookDeliveries.replaySince(webhook.id, before.seq, at(4), deliveriesOf, again)).toBe(
        3,
      );
      const all = await list(webhook.id);
      expect(all.map((delivery) => delivery.seq).sort()).toEqual([before, ...later].map((event) => event.seq).sort());
      expect(all.every((delivery) => delivery.status === 'pending')).toBe(true);
      expect(new Set(all.map((delivery) => delivery.id)).size).toBe(3);
      const actions = (await repositories.audit.list({ page: 1, size: 100 })).events.map((event) => event.action);
      expect(actions.filter((action) => action === 'webhook.replayed')).toHaveLength(2);
    });

    it("an import's event makes one delivery per user it names, all at its place, and a replay the same ones again", async () => {
      const webhook = await endpoint();
      const user = (id: string, version: number) => ({ id, version }) as User;
      // Enough users across two events that they take two dispatches: DISPATCH_DELIVERIES_MAX a transaction.
      const created = Array.from({ length: DISPATCH_DELIVERIES_MAX - 2 }, (_, n) => user(`created-${n}`, 1));
      const first = await repositories.audit.append(
        auditRecord(
          nextId(),
          T0,
          SYSTEM,
          'users.imported',
          null,
          importedUsersChanges(created, [user('updated-0', 4)]),
        ),
      );
      const second = await repositories.audit.append(
        auditRecord(
          nextId(),
          T0,
          SYSTEM,
          'users.imported',
          null,
          importedUsersChanges([user('later-0', 1), user('later-1', 1)], []),
        ),
      );
      expect(await repositories.webhookDeliveries.dispatch(webhook.id, 100, deliveriesOf)).toBe(2); // its own event, then the first import
      expect((await repositories.webhooks.get(webhook.id))?.cursor).toBe(first.seq);
      expect(await dispatchAll(webhook.id)).toBe(1);
      const page = await repositories.webhookDeliveries.list(webhook.id, { page: 1, size: 2000 });
      expect(page.total).toBe(DISPATCH_DELIVERIES_MAX + 1);
      const ofFirst = page.deliveries.filter((delivery) => delivery.seq === first.seq);
      expect(ofFirst.filter((delivery) => delivery.eventType === 'user.created')).toHaveLength(created.length);
      expect(ofFirst.filter((delivery) => delivery.eventType === 'user.updated')).toHaveLength(1);
      expect(page.deliveries.filter((delivery) => delivery.seq === second.seq)).toHaveLength(2);

      const again = auditRecord(nextId(), at(4), SYSTEM, 'webhook.replayed', { type: 'webhooks', id: webhook.id });
      expect(await repositories.webhookDeliveries.replaySince(webhook.id, first.seq, at(4), deliveriesOf, again)).toBe(
        DISPATCH_DELIVERIES_MAX + 1,
      );
      const replayed = await repositories.webhookDeliveries.list(webhook.id, { page: 1, size: 2000 });
      expect(replayed.total).toBe(DISPATCH_DELIVERIES_MAX + 1);
      expect(new Set(replayed.deliveries.map((delivery) => delivery.id))).toEqual(
        new Set(page.deliveries.map((delivery) => delivery.id)),
      );
    });

    it('a test event is enqueued due at once, and the backlog counts what is pending', async () => {
      const webhook = await endpoint();
      await repositories.webhookDeliveries.enqueue({
        id: 'msg_test1',
        webhookId: webhook.id,
        seq: null,
        eventType: 'webhook.test',
        payload: '{"type":"webhook.test"}',
        created: T0,
      });
      expect(await repositories.webhookDeliveries.backlog(at(10))).toEqual({ pending: 1, oldestDueSeconds: 10 });
      const [claim] = await repositories.webhookDeliveries.claim(at(10), at(40), 10, UNSHARED);
      expect(claim).toMatchObject({ id: 'msg_test1', eventType: 'webhook.test', payload: '{"type":"webhook.test"}' });
    });
  });
}
