import { describe, expect, it } from './test-api.ts';
import type { ClaimedMail, NewMail } from '../mail/mail-message.ts';
import type { MailQueue } from '../mail/mail-queue.ts';
import type { AuditTrail } from '../audit/audit-trail.ts';
import { SYSTEM } from '../audit/audit-event.ts';
import { auditRecord } from '../audit/audit-records.ts';
import { useFreshRepositories, type OpenRepositories } from './contract-harness.ts';

const T0 = new Date('2026-01-01T00:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

/** Message `n`, created `n` seconds after T0 unless told. */
export function sampleMail(n: number, created = at(n)): NewMail {
  const id = `30000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
  return {
    id,
    kind: 'test',
    recipient: `person${n}@example.com`,
    subject: `Message ${n}`,
    body: { keyId: 'key-1', ciphertext: `sealed-${n}` },
    created,
  };
}

/** The behaviour every MailQueue promises. */
export function describeMailQueueContract(backend: string, open: OpenRepositories): void {
  describe(`MailQueue contract (${backend})`, () => {
    let queue: MailQueue;
    let other: MailQueue;
    let audit: AuditTrail;
    useFreshRepositories(open, (repositories, another) => {
      queue = repositories.mail;
      other = another.mail;
      audit = repositories.audit;
    });

    it('enqueue() stores a message queued and due at once, body and all', async () => {
      const message = sampleMail(1);
      await queue.enqueue(message);
      expect(await queue.findById(message.id)).toEqual({
        ...message,
        status: 'queued',
        attempts: 0,
        nextAttemptAt: message.created,
        lastError: null,
        deliveredAt: null,
      });
      expect(await queue.findById('30000000-0000-4000-8000-00000000ffff')).toBeNull();
    });

    it('claim() takes the due messages, each once, until its lease ends', async () => {
      await queue.enqueue(sampleMail(3));
      await queue.enqueue(sampleMail(1));
      await queue.enqueue(sampleMail(50)); // not due at 10 s
      const claimed = (await queue.claim(at(10), at(70), 5)).sort((a, b) => (a.id < b.id ? -1 : 1));
      expect(claimed.map((mail) => [mail.id, mail.attempt])).toEqual([
        [sampleMail(1).id, 1],
        [sampleMail(3).id, 1],
      ]);
      expect(claimed[0]).toEqual({ ...omitCreated(sampleMail(1)), attempt: 1 });
      expect(await other.claim(at(49), at(109), 5)).toEqual([]);
      expect(await queue.findById(sampleMail(1).id)).toMatchObject({
        status: 'sending',
        attempts: 1,
        nextAttemptAt: at(70),
      });
    });

    it('claim() takes the longest due first when more are due than it may take', async () => {
      for (const n of [4, 2, 3]) await queue.enqueue(sampleMail(n));
      expect((await queue.claim(at(10), at(70), 1)).map((mail) => mail.subject)).toEqual(['Message 2']);
      expect((await other.claim(at(10), at(70), 1)).map((mail) => mail.subject)).toEqual(['Message 3']);
    });

    it('a message whose sender died is taken over when the lease ends, and the late settle changes nothing', async () => {
      await queue.enqueue(sampleMail(1));
      const [first] = await queue.claim(at(1), at(61), 1);
      const [second] = await other.claim(at(61), at(121), 1);
      expect(second?.attempt).toBe(2);
      expect(await queue.settle(first!, { status: 'delivered', at: at(62) })).toBe(false);
      expect(await queue.findById(sampleMail(1).id)).toMatchObject({ status: 'sending', attempts: 2 });
      expect(await other.settle(second!, { status: 'delivered', at: at(63) })).toBe(true);
    });

    it('settle() as delivered clears the body and the next attempt, and nothing claims it again', async () => {
      await queue.enqueue(sampleMail(1));
      const [claim] = await queue.claim(at(1), at(61), 1);
      expect(await queue.settle(claim!, { status: 'delivered', at: at(2) })).toBe(true);
      expect(await queue.findById(claim!.id)).toMatchObject({
        status: 'delivered',
        body: null,
        nextAttemptAt: null,
        deliveredAt: at(2),
        attempts: 1,
      });
      expect(await queue.claim(at(1000), at(1060), 5)).toEqual([]);
      expect(await queue.settle(claim!, { status: 'delivered', at: at(3) })).toBe(false);
    });

    it("settle() appends its audit event with the outcome, and a late settle's event not at all", async () => {
      await queue.enqueue(sampleMail(1));
      const [first] = await queue.claim(at(1), at(61), 1);
      const [second] = await other.claim(at(61), at(121), 1);
      const event = (n: number) =>
        auditRecord(`40000000-0000-4000-8000-00000000000${n}`, at(62), SYSTEM, 'mail.delivered', {
          type: 'mail-messages',
          id: sampleMail(1).id,
        });
      expect(await queue.settle(first!, { status: 'delivered', at: at(62) }, event(1))).toBe(false);
      expect(await other.settle(second!, { status: 'delivered', at: at(63) }, event(2))).toBe(true);
      const { events } = await audit.list({ page: 1, size: 10 });
      expect(events.map(({ id, action, target }) => ({ id, action, target }))).toEqual([
        { id: event(2).id, action: 'mail.delivered', target: { type: 'mail-messages', id: sampleMail(1).id } },
      ]);
    });

    it('settle() as queued records the error and the next attempt; an uncounted one gives the attempt back', async () => {
      await queue.enqueue(sampleMail(1));
      const [claim] = await queue.claim(at(1), at(61), 1);
      await queue.settle(claim!, { status: 'queued', nextAttemptAt: at(6), error: '421 busy', counted: true });
      expect(await queue.findById(claim!.id)).toMatchObject({
        status: 'queued',
        attempts: 1,
        nextAttemptAt: at(6),
        lastError: '421 busy',
      });
      expect(await queue.claim(at(5), at(65), 1)).toEqual([]);
      const [again] = await queue.claim(at(6), at(66), 1);
      expect(again?.attempt).toBe(2);
      await queue.settle(again!, {
        status: 'queued',
        nextAttemptAt: at(6),
        error: 'connection refused',
        counted: false,
      });
      expect(await queue.findById(claim!.id)).toMatchObject({
        status: 'queued',
        attempts: 1,
        lastError: 'connection refused',
      });
    });

    it('settle() as failed clears the body and keeps the error', async () => {
      await queue.enqueue(sampleMail(1));
      const [claim] = await queue.claim(at(1), at(61), 1);
      await queue.settle(claim!, { status: 'failed', error: '550 no such user' });
      expect(await queue.findById(claim!.id)).toMatchObject({
        status: 'failed',
        body: null,
        nextAttemptAt: null,
        lastError: '550 no such user',
      });
      expect(await queue.claim(at(1000), at(1060), 5)).toEqual([]);
    });

    it('list() pages newest first, with the total and without bodies', async () => {
      for (const n of [1, 2, 3, 4, 5]) await queue.enqueue(sampleMail(n));
      const page = await queue.list({ page: 2, size: 2 });
      expect(page.total).toBe(5);
      expect(page.messages.map((message) => message.subject)).toEqual(['Message 3', 'Message 2']);
      expect(page.messages[0]).not.toHaveProperty('body');
      expect((await queue.list({ page: 4, size: 2 })).messages).toEqual([]);
    });

    it('claimers racing on two instances deliver every message exactly once, round after round', async () => {
      const perRound = 30;
      for (let round = 0; round < 4; round += 1) {
        const ids = Array.from({ length: perRound }, (_, i) => sampleMail(round * perRound + i + 1, at(round)).id);
        for (let i = 0; i < perRound; i += 1) await queue.enqueue(sampleMail(round * perRound + i + 1, at(round)));
        const delivered: string[] = [];
        const claimer = async (from: MailQueue) => {
          for (;;) {
            const batch: ClaimedMail[] = await from.claim(at(round + 1), at(round + 61), 3);
            if (batch.length === 0) return;
            for (const claim of batch) {
              if (await from.settle(claim, { status: 'delivered', at: at(round + 1) })) delivered.push(claim.id);
            }
          }
        };
        await Promise.all([queue, other, queue, other, queue, other, queue, other].map(claimer));
        const duplicates = delivered.length - new Set(delivered).size;
        const lost = ids.filter((id) => !delivered.includes(id)).length;
        expect({ round, duplicates, lost }).toEqual({ round, duplicates: 0, lost: 0 });
      }
    });
  });
}

function omitCreated({ created: _created, ...rest }: NewMail): Omit<NewMail, 'created'> {
  return rest;
}
