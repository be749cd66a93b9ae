import { describe, expect, it } from './test-api.ts';
import { NO_REQUEST, SYSTEM, type AuditAction } from '../audit/audit-event.ts';
import { auditRecord, userTarget } from '../audit/audit-records.ts';
import type { Factor } from '../factors/factor.ts';
import type { ExternalIdentity } from '../identities/external-identity.ts';
import type { Repositories } from '../repositories.ts';
import { EmailTakenError, IdentityAlreadyLinkedError, LastSignInMethodError } from '../shared/errors.ts';
import { NO_PASSWORD_HASH } from '../users/password-match.ts';
import type { User } from '../users/user.ts';
import { useFreshRepositories, type OpenRepositories } from './contract-harness.ts';
import { IDENTITY_T0, identityAt, sampleExternalIdentity, sampleIdentityProvider } from './identity-samples.ts';
import { sampleUser } from './user.repository.contract.ts';

/** Concurrent calls per round, half on each instance, and rounds: enough for a lost race to show. */
const RACERS = 6;
const ROUNDS = 50;

let made = 0;
const nextId = (prefix: string) => {
  made += 1;
  return `${prefix}-0000-4000-8000-${made.toString(16).padStart(12, '0')}`;
};
const event = (action: AuditAction, userId: string) =>
  auditRecord(
    nextId('27400000'),
    IDENTITY_T0,
    { actor: { type: 'user', id: userId }, request: NO_REQUEST },
    action,
    userTarget(userId),
  );

/** An active passkey (or, told so, a TOTP factor or a pending passkey) of the user. */
function factorOf(userId: string, { kind = 'webauthn', active = true } = {}): Factor {
  const id = nextId('27500000');
  const credential = {
    id: `credential-${id}`,
    publicKey: 'pQECAyYgASFYIA',
    counter: 0,
    transports: [],
    backedUp: true,
  };
  return {
    id,
    owner: 'user',
    subjectId: userId,
    kind: kind === 'webauthn' ? 'webauthn' : 'totp',
    created: IDENTITY_T0,
    activated: active ? IDENTITY_T0 : null,
    lastUsed: null,
    totp: kind === 'webauthn' ? null : { secret: { keyId: 'key-1', ciphertext: `sealed-${id}` }, lastStep: null },
    webauthn:
      kind === 'webauthn' ? { challenge: active ? null : 'challenge', credential: active ? credential : null } : null,
  };
}

/** The behaviour every ExternalIdentityRepository promises: one user per (provider, subject), never no way in. */
export function describeExternalIdentityRepositoryContract(backend: string, open: OpenRepositories): void {
  describe(`ExternalIdentityRepository contract (${backend})`, () => {
    let repositories: Repositories;
    let another: Repositories;
    useFreshRepositories(open, (opened, second) => {
      repositories = opened;
      another = second;
    });

    /** The events recorded, newest first. */
    const actions = async () => (await repositories.audit.list({ page: 1, size: 500 })).events.map((e) => e.action);
    const provider = async () => {
      const stored = sampleIdentityProvider();
      const created = auditRecord(nextId('27400000'), IDENTITY_T0, SYSTEM, 'identity_provider.created', {
        type: 'identity_providers',
        id: stored.id,
      });
      await repositories.identityProviders.create(stored, created);
      return stored;
    };
    const user = async (overrides: Partial<User> = {}) => {
      const stored = sampleUser(overrides);
      await repositories.users.insert(stored);
      return stored;
    };
    const link = (identity: ExternalIdentity, on = repositories) =>
      on.externalIdentities.link(identity, event('user.identity_linked', identity.userId));
    const unlink = (identity: ExternalIdentity, on = repositories) =>
      on.externalIdentities.unlink(identity.userId, identity.id, event('user.identity_unlinked', identity.userId));
    /** A user without a password, with `count` identities. */
    const passwordless = async (count: number) => {
      const [{ id: providerId }, { id: userId }] = [await provider(), await user({ passwordHash: NO_PASSWORD_HASH })];
      const identities = Array.from({ length: count }, () => sampleExternalIdentity(userId, providerId));
      for (const identity of identities) await link(identity);
      return identities;
    };

    it('links an identity with its event, found by (provider, subject) and listed with its user on any instance', async () => {
      const { id: providerId } = await provider();
      const { id: userId } = await user();
      const identity = sampleExternalIdentity(userId, providerId, { email: null, emailVerified: false });
      expect(await link(identity)).toEqual(identity);
      expect(await another.externalIdentities.findBySubject(providerId, identity.subject)).toEqual(identity);
      expect(await another.externalIdentities.listByUser(userId)).toEqual([identity]);
      expect(await repositories.externalIdentities.findBySubject(providerId, 'other')).toBeNull();
      expect(await actions()).toEqual(['user.identity_linked', 'identity_provider.created']);
    });

    it("lists a user's identities oldest first, then by id, and only theirs", async () => {
      const [{ id: providerId }, { id: userId }, { id: otherId }] = [await provider(), await user(), await user()];
      const second = sampleExternalIdentity(userId, providerId, { created: identityAt(2) });
      const first = sampleExternalIdentity(userId, providerId, { created: identityAt(1) });
      const third = sampleExternalIdentity(userId, providerId, {
        created: identityAt(2),
        id: '27100000-0000-4000-8000-ffffffffffff',
      });
      for (const identity of [second, third, first, sampleExternalIdentity(otherId, providerId)]) await link(identity);
      expect(await repositories.externalIdentities.listByUser(userId)).toEqual([first, second, third]);
      expect(await repositories.externalIdentities.listByUser('unknown')).toEqual([]);
    });

    it('refuses a (provider, subject) linked already, to anyone, with IdentityAlreadyLinkedError, recording nothing', async () => {
      const [first, second] = [await provider(), await provider()];
      const [{ id: userId }, { id: otherId }] = [await user(), await user()];
      const linked = sampleExternalIdentity(userId, first.id);
      await link(linked);
      const before = await actions();
      for (const again of [
        sampleExternalIdentity(otherId, first.id, { subject: linked.subject }),
        sampleExternalIdentity(userId, first.id, { subject: linked.subject }),
      ]) {
        await expect(link(again)).rejects.toBeInstanceOf(IdentityAlreadyLinkedError);
      }
      expect(await repositories.externalIdentities.listByUser(otherId)).toEqual([]);
      expect(await actions()).toEqual(before);
      // The same subject at another provider is another account.
      const elsewhere = sampleExternalIdentity(otherId, second.id, { subject: linked.subject });
      expect(await link(elsewhere)).toEqual(elsewhere);
    });

    it('answers null for a link to a user who is not there (any more), recording nothing', async () => {
      const { id: providerId } = await provider();
      const { id: userId } = await user();
      await repositories.users.delete(userId, identityAt(1));
      const before = await actions();
      expect(await link(sampleExternalIdentity(userId, providerId))).toBeNull();
      expect(await link(sampleExternalIdentity('27000000-0000-4000-8000-00000000dead', providerId))).toBeNull();
      expect(await repositories.externalIdentities.listByUser(userId)).toEqual([]);
      expect(await actions()).toEqual(before);
    });

    it(`of ${RACERS} concurrent links of one (provider, subject) to different users, on two instances, exactly one wins: ${ROUNDS} rounds`, async () => {
      const { id: providerId } = await provider();
      const users = await Promise.all(Array.from({ length: RACERS }, () => user()));
      const outcomes: string[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const subject = `race-${round}`;
        const settled = await Promise.allSettled(
          users.map(({ id }, racer) =>
            link(sampleExternalIdentity(id, providerId, { subject }), racer % 2 === 0 ? repositories : another),
          ),
        );
        const refused = settled.filter(
          (s) => s.status === 'rejected' && s.reason instanceof IdentityAlreadyLinkedError,
        ).length;
        outcomes.push(`${settled.filter((s) => s.status === 'fulfilled').length} won, ${refused} refused`);
      }
      expect(outcomes).toEqual(Array.from({ length: ROUNDS }, () => `1 won, ${RACERS - 1} refused`));
      const linked = await Promise.all(users.map(({ id }) => repositories.externalIdentities.listByUser(id)));
      expect(linked.flat().length).toBe(ROUNDS);
      expect((await actions()).filter((action) => action === 'user.identity_linked').length).toBe(ROUNDS);
    });

    it('creates a user with an identity in one go, with its event, counted as a sign-up', async () => {
      const { id: providerId } = await provider();
      const before = await repositories.activity.userTotals();
      const created = sampleUser({ passwordHash: NO_PASSWORD_HASH, emailVerified: null });
      const identity = sampleExternalIdentity(created.id, providerId, { lastSignIn: IDENTITY_T0 });
      await repositories.externalIdentities.createUserWithIdentity(
        created,
        identity,
        event('user.signed_up', created.id),
      );
      expect(await another.users.findById(created.id)).toEqual(created);
      expect(await another.externalIdentities.findBySubject(providerId, identity.subject)).toEqual(identity);
      expect((await repositories.activity.userTotals()).total).toBe(before.total + 1);
      expect(await actions()).toEqual(['user.signed_up', 'identity_provider.created']);
    });

    it('creates neither the user nor the identity when the email is taken (EmailTakenError) or the identity linked (IdentityAlreadyLinkedError)', async () => {
      const { id: providerId } = await provider();
      const holder = await user();
      const linked = sampleExternalIdentity(holder.id, providerId);
      await link(linked);
      const before = await actions();

      const sameEmail = sampleUser({ email: holder.email });
      const fresh = sampleExternalIdentity(sameEmail.id, providerId);
      await expect(
        repositories.externalIdentities.createUserWithIdentity(sameEmail, fresh, event('user.signed_up', sameEmail.id)),
      ).rejects.toBeInstanceOf(EmailTakenError);
      expect(await repositories.users.findById(sameEmail.id)).toBeNull();
      expect(await repositories.externalIdentities.findBySubject(providerId, fresh.subject)).toBeNull();

      const newcomer = sampleUser();
      const taken = sampleExternalIdentity(newcomer.id, providerId, { subject: linked.subject });
      await expect(
        repositories.externalIdentities.createUserWithIdentity(newcomer, taken, event('user.signed_up', newcomer.id)),
      ).rejects.toBeInstanceOf(IdentityAlreadyLinkedError);
      expect(await repositories.users.findById(newcomer.id)).toBeNull();
      expect(await repositories.users.findByEmail(newcomer.email)).toBeNull();
      expect(await actions()).toEqual(before);
    });

    it(`of ${RACERS} concurrent sign-ups with one email, on two instances, exactly one wins: ${ROUNDS} rounds`, async () => {
      const { id: providerId } = await provider();
      const outcomes: string[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const email = `race-${round}@example.com`;
        const settled = await Promise.allSettled(
          Array.from({ length: RACERS }, (_, racer) => {
            const created = sampleUser({ email });
            return (racer % 2 === 0 ? repositories : another).externalIdentities.createUserWithIdentity(
              created,
              sampleExternalIdentity(created.id, providerId),
              event('user.signed_up', created.id),
            );
          }),
        );
        const refused = settled.filter((s) => s.status === 'rejected' && s.reason instanceof EmailTakenError).length;
        outcomes.push(`${settled.filter((s) => s.status === 'fulfilled').length} won, ${refused} refused`);
      }
      expect(outcomes).toEqual(Array.from({ length: ROUNDS }, () => `1 won, ${RACERS - 1} refused`));
      expect((await actions()).filter((action) => action === 'user.signed_up').length).toBe(ROUNDS);
    });

    it('touch() records a sign-in and the email as the provider now gives it, with its event', async () => {
      const [{ id: providerId }, { id: userId }] = [await provider(), await user()];
      const identity = sampleExternalIdentity(userId, providerId);
      await link(identity);
      await another.externalIdentities.touch(
        identity.id,
        'moved@example.org',
        false,
        identityAt(30),
        event('user.identity_signed_in', userId),
      );
      expect(await repositories.externalIdentities.findBySubject(providerId, identity.subject)).toEqual({
        ...identity,
        email: 'moved@example.org',
        emailVerified: false,
        lastSignIn: identityAt(30),
      });
      expect((await actions())[0]).toBe('user.identity_signed_in');
    });

    it("unlink() removes the user's identity with its event while a password is left; false for none or another's", async () => {
      const [{ id: providerId }, { id: userId }, { id: otherId }] = [await provider(), await user(), await user()];
      const identity = sampleExternalIdentity(userId, providerId);
      const others = sampleExternalIdentity(otherId, providerId);
      await link(identity);
      await link(others);
      const before = await actions();
      expect(
        await repositories.externalIdentities.unlink(userId, others.id, event('user.identity_unlinked', userId)),
      ).toBe(false);
      expect(await actions()).toEqual(before);
      expect(await unlink(identity, another)).toBe(true);
      expect(await repositories.externalIdentities.listByUser(userId)).toEqual([]);
      expect(await repositories.externalIdentities.listByUser(otherId)).toEqual([others]);
      expect(await unlink(identity)).toBe(false);
      expect(await actions()).toEqual(['user.identity_unlinked', ...before]);
    });

    it('unlink() refuses the last way in (no password, no passkey, no other identity) with LastSignInMethodError, recording nothing', async () => {
      const [last] = await passwordless(1);
      // Neither a TOTP factor nor a passkey still pending is a way in.
      await repositories.factors.create(factorOf(last!.userId, { kind: 'totp' }));
      await repositories.factors.create(factorOf(last!.userId, { active: false }));
      const before = await actions();
      await expect(unlink(last!)).rejects.toBeInstanceOf(LastSignInMethodError);
      expect(await repositories.externalIdentities.listByUser(last!.userId)).toEqual([last]);
      expect(await actions()).toEqual(before);
    });

    it('unlink() lets an identity go while another identity or an active passkey is left', async () => {
      const [first, second] = await passwordless(2);
      expect(await unlink(first!)).toBe(true);
      await expect(unlink(second!)).rejects.toBeInstanceOf(LastSignInMethodError);
      await repositories.factors.create(factorOf(second!.userId));
      expect(await unlink(second!)).toBe(true);
      expect(await repositories.externalIdentities.listByUser(second!.userId)).toEqual([]);
    });

    it(`of two concurrent unlinks of a user's last two ways in, on two instances, exactly one passes: ${ROUNDS} rounds`, async () => {
      const outcomes: string[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const [first, second] = await passwordless(2);
        const settled = await Promise.allSettled([unlink(first!, repositories), unlink(second!, another)]);
        const refused = settled.filter(
          (s) => s.status === 'rejected' && s.reason instanceof LastSignInMethodError,
        ).length;
        const left = (await repositories.externalIdentities.listByUser(first!.userId)).length;
        outcomes.push(
          `${settled.filter((s) => s.status === 'fulfilled').length} passed, ${refused} refused, ${left} left`,
        );
      }
      expect(outcomes).toEqual(Array.from({ length: ROUNDS }, () => '1 passed, 1 refused, 1 left'));
    });

    it("a deleted user's identities go with it", async () => {
      const [{ id: providerId }, { id: userId }] = [await provider(), await user()];
      const identity = sampleExternalIdentity(userId, providerId);
      await link(identity);
      expect(await repositories.users.delete(userId, identityAt(1))).toBe(true);
      expect(await repositories.externalIdentities.findBySubject(providerId, identity.subject)).toBeNull();
      expect(await repositories.externalIdentities.listByUser(userId)).toEqual([]);
    });
  });
}
