import { describe, expect, it } from './test-api.ts';
import type { StoredActionToken } from '../action-tokens/action-token.ts';
import { NO_REQUEST, SYSTEM } from '../audit/audit-event.ts';
import { auditRecord, userTarget } from '../audit/audit-records.ts';
import type { MailRequest, MailRequestKind } from '../mail-requests/mail-request.ts';
import type { Repositories } from '../repositories.ts';
import { useFreshRepositories, type OpenRepositories } from './contract-harness.ts';
import { sampleMail } from './mail-queue.contract.ts';
import { sampleUser } from './user.repository.contract.ts';

const T0 = new Date('2026-01-01T00:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
/** Requests, and workers claiming them at once on two instances. */
const REQUESTS = 30;
const WORKERS = 6;

let made = 0;
function sampleRequest(overrides: Partial<MailRequest> = {}): MailRequest {
  made += 1;
  return {
    id: `50000000-0000-4000-8000-${made.toString(16).padStart(12, '0')}`,
    kind: 'recovery' satisfies MailRequestKind,
    email: `asked${made}@example.com`,
    created: at(made % 10),
    request: { requestId: `req-${made}`, clientAddress: '203.0.113.7', userAgent: 'curl/8' },
    ...overrides,
  };
}

/** The behaviour every MailRequestQueue promises: nothing lost, each request resolved once. */
export function describeMailRequestQueueContract(backend: string, open: OpenRepositories): void {
  describe(`MailRequestQueue contract (${backend})`, () => {
    let repositories: Repositories;
    let other: Repositories;
    useFreshRepositories(open, (opened, another) => {
      repositories = opened;
      other = another;
    });
    const queue = () => repositories.mailRequests;

    it('claim() answers recorded requests oldest first, as recorded, each with its first attempt', async () => {
      const later = sampleRequest({ created: at(20) });
      const sooner = sampleRequest({ created: at(10), kind: 'verification', request: NO_REQUEST });
      await queue().record(later);
      await queue().record(sooner);
      expect(await queue().claim(at(30), at(60), 10)).toEqual([
        { ...sooner, attempt: 1 },
        { ...later, attempt: 1 },
      ]);
    });

    it('a claimed request is not claimed again until its lease ends; then another claim takes it over', async () => {
      const request = sampleRequest();
      await queue().record(request);
      const [first] = await queue().claim(at(30), at(60), 10);
      expect(await queue().claim(at(59), at(89), 10)).toEqual([]);
      const [second] = await other.mailRequests.claim(at(60), at(90), 10);
      expect(second).toEqual({ ...request, attempt: 2 });
      expect(await queue().settle([{ claim: first! }])).toEqual([false]);
      expect(await other.mailRequests.settle([{ claim: second! }])).toEqual([true]);
      expect(await queue().claim(at(200), at(230), 10)).toEqual([]);
    });

    it('settle() removes the request and writes its token, message and audit event in one go', async () => {
      const user = sampleUser();
      await repositories.users.insert(user);
      const request = sampleRequest({ email: user.email });
      await queue().record(request);
      const [claim] = await queue().claim(at(30), at(60), 1);
      const token: StoredActionToken = {
        id: '60000000-0000-4000-8000-000000000001',
        purpose: 'recovery',
        userId: user.id,
        email: user.email,
        created: at(30),
        expires: at(1830),
        used: null,
        digest: 'digest-of-resolved-request',
      };
      const mail = sampleMail(900);
      const audit = auditRecord(crypto.randomUUID(), at(30), SYSTEM, 'user.recovery_requested', userTarget(user.id));
      expect(await queue().settle([{ claim: claim!, outcome: { token, mail, audit } }])).toEqual([true]);
      expect(await repositories.tokens.consume('recovery', [token.digest], at(31))).toMatchObject({ id: token.id });
      expect(await repositories.mail.findById(mail.id)).not.toBeNull();
      const events = await repositories.audit.list({ page: 1, size: 10, action: 'user.recovery_requested' });
      expect(events.events.map((event) => event.id)).toEqual([audit.id]);
      expect(await queue().claim(at(100), at(130), 10)).toEqual([]);
    });

    it('a settle whose outcome cannot be written writes nothing and leaves the request to a later claim', async () => {
      const request = sampleRequest();
      await queue().record(request);
      const [claim] = await queue().claim(at(30), at(60), 1);
      const orphan: StoredActionToken = {
        id: '60000000-0000-4000-8000-000000000002',
        purpose: 'recovery',
        userId: '00000000-0000-4000-8000-ffffffffffff',
        email: null,
        created: at(30),
        expires: at(90),
        used: null,
        digest: 'digest-of-an-orphan',
      };
      await expect(
        queue().settle([{ claim: claim!, outcome: { token: orphan, mail: sampleMail(901) } }]),
      ).rejects.toBeInstanceOf(Error);
      expect(await repositories.mail.findById(sampleMail(901).id)).toBeNull();
      expect(await queue().claim(at(60), at(90), 10)).toEqual([{ ...request, attempt: 2 }]);
    });

    it('settle() of a round writes the outcome of each request still held, and nothing of one taken over', async () => {
      const user = sampleUser();
      await repositories.users.insert(user);
      const lost = sampleRequest({ created: at(1) });
      const held = sampleRequest({ created: at(2), email: user.email });
      await queue().record(lost);
      await queue().record(held);
      const [lostClaim] = await queue().claim(at(30), at(60), 1);
      const [takenOver] = await other.mailRequests.claim(at(60), at(90), 1);
      const [heldClaim] = await queue().claim(at(60), at(90), 1);
      expect([lostClaim?.id, takenOver?.id, heldClaim?.id]).toEqual([lost.id, lost.id, held.id]);
      const audit = (n: number) =>
        auditRecord(crypto.randomUUID(), at(n), SYSTEM, 'user.recovery_requested', userTarget(user.id));
      const [late, kept] = [audit(61), audit(62)];
      expect(
        await queue().settle([
          { claim: lostClaim!, outcome: { mail: sampleMail(902), audit: late } },
          { claim: heldClaim!, outcome: { mail: sampleMail(903), audit: kept } },
        ]),
      ).toEqual([false, true]);
      expect(await repositories.mail.findById(sampleMail(902).id)).toBeNull();
      expect(await repositories.mail.findById(sampleMail(903).id)).not.toBeNull();
      const events = await repositories.audit.list({ page: 1, size: 10, action: 'user.recovery_requested' });
      expect(events.events.map((event) => event.id)).toEqual([kept.id]);
      expect(await other.mailRequests.settle([{ claim: takenOver! }])).toEqual([true]);
      expect(await queue().claim(at(200), at(230), 10)).toEqual([]);
    });

    it('a round with one outcome that cannot be written writes nothing of any, and leaves each to a later claim', async () => {
      const first = sampleRequest({ created: at(1) });
      const second = sampleRequest({ created: at(2) });
      await queue().record(first);
      await queue().record(second);
      const [firstClaim, secondClaim] = await queue().claim(at(30), at(60), 2);
      const orphan: StoredActionToken = {
        id: '60000000-0000-4000-8000-000000000003',
        purpose: 'recovery',
        userId: '00000000-0000-4000-8000-ffffffffffff',
        email: null,
        created: at(30),
        expires: at(90),
        used: null,
        digest: 'digest-of-another-orphan',
      };
      await expect(
        queue().settle([
          { claim: firstClaim!, outcome: { mail: sampleMail(904) } },
          { claim: secondClaim!, outcome: { token: orphan } },
        ]),
      ).rejects.toBeInstanceOf(Error);
      expect(await repositories.mail.findById(sampleMail(904).id)).toBeNull();
      expect(await queue().claim(at(60), at(90), 10)).toEqual([
        { ...first, attempt: 2 },
        { ...second, attempt: 2 },
      ]);
    });

    it(`${WORKERS} workers on two instances claiming ${REQUESTS} requests at once: each claimed exactly once`, async () => {
      for (let n = 0; n < REQUESTS; n += 1) await queue().record(sampleRequest());
      const batches = await Promise.all(
        Array.from({ length: WORKERS }, (_, worker) =>
          (worker % 2 === 0 ? repositories : other).mailRequests.claim(at(30), at(60), 7),
        ),
      );
      const ids = batches.flat().map((request) => request.id);
      expect(ids).toHaveLength(REQUESTS);
      expect(new Set(ids).size).toBe(REQUESTS);
    });
  });
}
