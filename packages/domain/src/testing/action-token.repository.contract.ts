import { describe, expect, it } from './test-api.ts';
import type { ActionPurpose, StoredActionToken } from '../action-tokens/action-token.ts';
import { SYSTEM } from '../audit/audit-event.ts';
import { auditRecord, userTarget } from '../audit/audit-records.ts';
import type { Repositories } from '../repositories.ts';
import { EmailTakenError, ValidationError } from '../shared/errors.ts';
import type { User } from '../users/user.ts';
import { applyUserPatch } from '../users/user.rules.ts';
import { useFreshRepositories, type OpenRepositories } from './contract-harness.ts';
import { sampleMail } from './mail-queue.contract.ts';
import { sampleUser } from './user.repository.contract.ts';

const T0 = new Date('2026-01-01T00:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
/** Concurrent uses of one token per round, and rounds: enough for a lost race to show. */
const RACERS = 8;
const ROUNDS = 25;

let made = 0;
/** Token `n` of `user`, made at T0 and usable for an hour unless told. */
function sampleToken(user: User, overrides: Partial<StoredActionToken> = {}): StoredActionToken {
  made += 1;
  return {
    id: `40000000-0000-4000-8000-${made.toString(16).padStart(12, '0')}`,
    purpose: 'verification',
    userId: user.id,
    email: user.email,
    created: T0,
    expires: at(3600),
    used: null,
    digest: `digest-${made}`,
    ...overrides,
  };
}

/** The error `promise` rejects with, or null when it fulfils. */
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

/** The behaviour every ActionTokenRepository promises: single use, however many try at once. */
export function describeActionTokenRepositoryContract(backend: string, open: OpenRepositories): void {
  describe(`ActionTokenRepository contract (${backend})`, () => {
    let repositories: Repositories;
    let other: Repositories;
    useFreshRepositories(open, (opened, another) => {
      repositories = opened;
      other = another;
    });
    const storedUser = async (overrides: Partial<User> = {}) => {
      const user = sampleUser(overrides);
      await repositories.users.insert(user);
      return user;
    };
    const issued = async (token: StoredActionToken) => {
      await repositories.tokens.issue(token, sampleMail(made));
      return token;
    };
    it('issue() stores the token and queues its message; consume() answers it once, marked used', async () => {
      const user = await storedUser();
      const token = await issued(sampleToken(user, { email: 'new@example.com', purpose: 'email_change' }));
      expect(await repositories.mail.findById(sampleMail(made).id)).not.toBeNull();
      const { digest, ...record } = token;
      expect(await repositories.tokens.consume('email_change', [digest], at(10))).toEqual({ ...record, used: at(10) });
      expect(await repositories.tokens.consume('email_change', [digest], at(11))).toBeNull();
    });

    it('consume() finds a token by any of the digests it is given, as after a rotation of the secret', async () => {
      const token = await issued(sampleToken(await storedUser()));
      expect(
        await repositories.tokens.consume('verification', ['digest-under-new-secret', token.digest], at(1)),
      ).toMatchObject({
        id: token.id,
      });
    });

    it.each<[string, (token: StoredActionToken) => [ActionPurpose, string[], Date]]>([
      ['a wrong digest', (token) => [token.purpose, [`${token.digest}x`], at(1)]],
      ['no digest', (token) => [token.purpose, [], at(1)]],
      ['another purpose', (token) => ['recovery', [token.digest], at(1)]],
      ['the moment it expires', (token) => [token.purpose, [token.digest], token.expires]],
      ['after it expired', (token) => [token.purpose, [token.digest], at(7200)]],
    ])('consume() answers null for %s, and leaves the token usable', async (_case, attempt) => {
      const token = await issued(sampleToken(await storedUser()));
      expect(await repositories.tokens.consume(...attempt(token))).toBeNull();
      expect(await repositories.tokens.consume(token.purpose, [token.digest], at(2))).toMatchObject({ id: token.id });
    });

    it(`of ${RACERS} concurrent uses of one token, on two instances, exactly one wins: ${ROUNDS} rounds`, async () => {
      const user = await storedUser();
      const winners: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const token = await issued(sampleToken(user));
        const results = await Promise.all(
          Array.from({ length: RACERS }, (_, racer) =>
            (racer % 2 === 0 ? repositories : other).tokens.consume('verification', [token.digest], at(1)),
          ),
        );
        winners.push(results.filter((result) => result !== null).length);
      }
      expect(winners).toEqual(Array.from({ length: ROUNDS }, () => 1));
    });

    it('find() answers a usable token without using it, and null for what consume() refuses', async () => {
      const token = await issued(sampleToken(await storedUser()));
      const { digest, ...record } = token;
      expect(await repositories.tokens.find('verification', [digest], at(1))).toEqual(record);
      expect(await repositories.tokens.find('recovery', [digest], at(1))).toBeNull();
      expect(await repositories.tokens.find('verification', [digest], token.expires)).toBeNull();
      expect(await repositories.tokens.consume('verification', [digest], at(2))).toMatchObject({ id: token.id });
      expect(await repositories.tokens.find('verification', [digest], at(3))).toBeNull();
    });

    it('issue() without a message stores the token and the audit event it is given', async () => {
      const user = await storedUser();
      const token = sampleToken(user, { purpose: 'recovery' });
      const audit = auditRecord(crypto.randomUUID(), at(1), SYSTEM, 'user.recovery_sent', userTarget(user.id));
      await repositories.tokens.issue(token, null, audit);
      expect((await repositories.audit.list({ page: 1, size: 5 })).events.map((event) => event.id)).toEqual([audit.id]);
      expect(await repositories.tokens.consume('recovery', [token.digest], at(2))).toMatchObject({ id: token.id });
    });

    it("redeem() uses the token and writes its owner's change, with the message it causes, in one transaction", async () => {
      const user = await storedUser();
      const token = await issued(sampleToken(user, { purpose: 'recovery' }));
      const notice = sampleMail(700);
      const redeemed = await repositories.users.redeem('recovery', [token.digest], at(5), (current, used) => {
        expect(used).toMatchObject({ id: token.id, userId: user.id, used: at(5) });
        return { user: applyUserPatch(current, { passwordHash: 'reset-hash' }, at(5)), mail: notice };
      });
      expect(redeemed).toMatchObject({ id: user.id, passwordHash: 'reset-hash' });
      expect(await repositories.mail.findById(notice.id)).not.toBeNull();
      expect(await repositories.tokens.find('recovery', [token.digest], at(6))).toBeNull();
      expect(
        await repositories.users.redeem('recovery', [token.digest], at(6), () => {
          throw new Error('a used token must not reach the change');
        }),
      ).toBeNull();
    });

    it('redeem() whose change throws writes nothing and leaves the token usable', async () => {
      const user = await storedUser();
      const token = await issued(sampleToken(user, { purpose: 'recovery' }));
      // A domain error, as a use case's change throws: the store lets it through as it is.
      const refusal = new ValidationError([{ source: { pointer: '/password' }, detail: 'refused by the change' }]);
      await expect(
        repositories.users.redeem('recovery', [token.digest], at(5), () => {
          throw refusal;
        }),
      ).rejects.toBe(refusal);
      expect(await repositories.users.findById(user.id)).toMatchObject({ passwordHash: user.passwordHash });
      expect(await repositories.tokens.find('recovery', [token.digest], at(6))).toMatchObject({ id: token.id });
    });

    it(`of ${RACERS} concurrent redeems of one token on two instances exactly one changes the user: ${ROUNDS} rounds`, async () => {
      const user = await storedUser();
      const winners: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const token = await issued(sampleToken(user, { purpose: 'recovery' }));
        const before = (await repositories.users.findById(user.id))!.version;
        const results = await Promise.all(
          Array.from({ length: RACERS }, (_, racer) =>
            (racer % 2 === 0 ? repositories : other).users.redeem('recovery', [token.digest], at(1), (current) => ({
              user: applyUserPatch(current, { name: `Round ${round}` }, at(1)),
            })),
          ),
        );
        winners.push(results.filter((result) => result !== null).length);
        expect((await repositories.users.findById(user.id))!.version).toBe(before + 1);
      }
      expect(winners).toEqual(Array.from({ length: ROUNDS }, () => 1));
    });

    it("a change of the user's password or email that voids tokens leaves none of them usable, and no one else's", async () => {
      const user = await storedUser();
      const bystander = await storedUser();
      const [mine, theirs] = [await issued(sampleToken(user)), await issued(sampleToken(bystander))];
      await repositories.users.update(user.id, (current) => ({
        user: applyUserPatch(current, { passwordHash: 'another-hash' }, at(5)),
        voidTokens: true,
      }));
      expect(await repositories.tokens.consume('verification', [mine.digest], at(6))).toBeNull();
      expect(await repositories.tokens.consume('verification', [theirs.digest], at(6))).toMatchObject({
        id: theirs.id,
      });
    });

    it('a change that does not void tokens leaves them usable', async () => {
      const user = await storedUser();
      const token = await issued(sampleToken(user));
      await repositories.users.update(user.id, (current) => ({
        user: applyUserPatch(current, { name: 'Renamed' }, at(5)),
      }));
      expect(await repositories.tokens.consume('verification', [token.digest], at(6))).toMatchObject({ id: token.id });
    });

    it('deleting the user takes its tokens with it', async () => {
      const user = await storedUser();
      const token = await issued(sampleToken(user));
      expect(await repositories.users.delete(user.id, at(5))).toBe(true);
      expect(await repositories.tokens.consume('verification', [token.digest], at(6))).toBeNull();
    });
    it('a user inserted with a token stores both and queues its message in one write', async () => {
      const user = sampleUser();
      const token = sampleToken(user);
      await repositories.users.insert(user, undefined, { token, mail: sampleMail(made) });
      expect(await repositories.mail.findById(sampleMail(made).id)).not.toBeNull();
      expect(await repositories.tokens.consume('verification', [token.digest], at(1))).toMatchObject({ id: token.id });
    });

    it('a user refused for a taken email is inserted with neither its token nor its message', async () => {
      const owner = await storedUser();
      const twin = sampleUser({ email: owner.email });
      const token = sampleToken(twin);
      const mail = sampleMail(made);
      expect(await rejection(repositories.users.insert(twin, undefined, { token, mail }))).toBeInstanceOf(
        EmailTakenError,
      );
      expect(await repositories.mail.findById(mail.id)).toBeNull();
      expect(await repositories.users.findById(twin.id)).toBeNull();
    });

    it('issue() writes its notices and audit event in the transaction of the token', async () => {
      const user = await storedUser();
      const notice = sampleMail(10_000 + made);
      const audit = auditRecord(
        `50000000-0000-4000-8000-${made.toString(16).padStart(12, '0')}`,
        T0,
        SYSTEM,
        'user.email_change_requested',
        userTarget(user.id),
      );
      await repositories.tokens.issue(sampleToken(user), sampleMail(made), audit, [notice]);
      expect(await repositories.mail.findById(notice.id)).not.toBeNull();
      expect((await repositories.audit.list({ page: 1, size: 10 })).events.map((event) => event.id)).toContain(
        audit.id,
      );
    });

    it('redeem() takes one of several purposes: the token of either is used, once', async () => {
      const user = await storedUser();
      const token = await issued(sampleToken(user, { purpose: 'email_change', email: 'moved@example.com' }));
      const changed = await repositories.users.redeem(
        ['verification', 'email_change'],
        [token.digest],
        at(10),
        (current, used) => ({
          user: applyUserPatch(current, { email: used.email ?? '', emailVerified: at(10).toISOString() }, at(10)),
        }),
      );
      expect(changed).toMatchObject({ id: user.id, email: 'moved@example.com', emailVerified: at(10) });
      expect(await repositories.users.findByEmail('moved@example.com')).toMatchObject({ id: user.id });
      const again = await repositories.users.redeem(
        ['verification', 'email_change'],
        [token.digest],
        at(11),
        (current) => ({
          user: current,
        }),
      );
      expect(again).toBeNull();
      expect(
        await repositories.users.redeem(['recovery', 'invitation'], [token.digest], at(11), (current) => ({
          user: current,
        })),
      ).toBeNull();
    });

    it('redeem() whose new email is taken meanwhile writes nothing and leaves the token usable', async () => {
      const user = await storedUser();
      const taken = await storedUser();
      const token = await issued(sampleToken(user, { purpose: 'email_change', email: taken.email }));
      expect(
        await rejection(
          repositories.users.redeem('email_change', [token.digest], at(5), (current, used) => ({
            user: applyUserPatch(current, { email: used.email ?? '' }, at(5)),
            voidTokens: true,
          })),
        ),
      ).toBeInstanceOf(EmailTakenError);
      expect(await repositories.users.findById(user.id)).toMatchObject({ email: user.email, version: user.version });
      expect(await repositories.tokens.consume('email_change', [token.digest], at(6))).toMatchObject({ id: token.id });
    });
  });
}
