import { describe, expect, it } from './test-api.ts';
import { SYSTEM, type AuditAction } from '../audit/audit-event.ts';
import { auditRecord, userTarget } from '../audit/audit-records.ts';
import type { Factor, PasskeyCredential } from '../factors/factor.ts';
import type { Repositories } from '../repositories.ts';
import type { SubjectKind } from '../shared/identity.ts';
import { useFreshRepositories, type OpenRepositories } from './contract-harness.ts';
import { sampleAdmin } from './admin.repository.contract.ts';
import { sampleUser } from './user.repository.contract.ts';
import { firstTokenOf, sampleSession } from './sample-session.ts';
import { sampleMail } from './mail-queue.contract.ts';

const T0 = new Date('2026-01-01T00:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
/** Concurrent calls with one input per round, half on each instance, and rounds: enough for a lost race to show. */
const RACERS = 6;
const ROUNDS = 50;

let made = 0;
const nextId = () => {
  made += 1;
  return `50000000-0000-4000-8000-${made.toString(16).padStart(12, '0')}`;
};

interface Account {
  owner: SubjectKind;
  subjectId: string;
}

/** A pending TOTP factor of `account`, created at `created` (T0 unless told). */
function totpFactor({ owner, subjectId }: Account, overrides: Partial<Factor> = {}): Factor {
  const id = overrides.id ?? nextId();
  return {
    id,
    owner,
    subjectId,
    kind: 'totp',
    created: T0,
    activated: null,
    lastUsed: null,
    totp: { secret: { keyId: 'key-1', ciphertext: `sealed-${id}` }, lastStep: null },
    webauthn: null,
    ...overrides,
  };
}

/** A pending passkey of `account`, awaiting its registration. */
function passkeyFactor({ owner, subjectId }: Account, overrides: Partial<Factor> = {}): Factor {
  const id = overrides.id ?? nextId();
  return {
    id,
    owner,
    subjectId,
    kind: 'webauthn',
    created: T0,
    activated: null,
    lastUsed: null,
    totp: null,
    webauthn: { challenge: `challenge-${id}`, credential: null },
    ...overrides,
  };
}

const credential = (overrides: Partial<PasskeyCredential> = {}): PasskeyCredential => ({
  id: `credential-${nextId()}`,
  publicKey: 'pQECAyYgASFYIA',
  counter: 3,
  transports: ['internal', 'hybrid'],
  backedUp: false,
  ...overrides,
});

const digests = (prefix: string, count = 10) => Array.from({ length: count }, (_, index) => `${prefix}-${index}`);

/** The behaviour every FactorRepository promises: single use however many try at once, on any instance. */
export function describeFactorRepositoryContract(backend: string, open: OpenRepositories): void {
  describe(`FactorRepository contract (${backend})`, () => {
    let repositories: Repositories;
    let other: Repositories;
    useFreshRepositories(open, (opened, another) => {
      repositories = opened;
      other = another;
    });

    const userAccount = async (): Promise<Account> => {
      const user = sampleUser();
      await repositories.users.insert(user);
      return { owner: 'user', subjectId: user.id };
    };
    const adminAccount = async (): Promise<Account> => {
      const admin = sampleAdmin();
      await repositories.admins.insert(admin);
      return { owner: 'admin', subjectId: admin.id };
    };
    const created = async (factor: Factor) => {
      await repositories.factors.create(factor);
      return factor;
    };
    /** An active TOTP factor of `account`, whose activation gave the account `codes`. */
    const activeTotp = async (account: Account, codes?: readonly string[]) => {
      const factor = await created(totpFactor(account));
      expect(await repositories.factors.activate(factor.id, at(1), { recoveryCodeDigests: codes })).not.toBeNull();
      return { ...factor, activated: at(1) };
    };
    const audit = (action: AuditAction, subjectId: string) =>
      auditRecord(crypto.randomUUID(), at(2), SYSTEM, action, userTarget(subjectId));
    const auditedIds = async () =>
      (await repositories.audit.list({ page: 1, size: 50 })).events.map((event) => event.id).sort();

    it('create() stores a pending factor that findById() and list() answer unchanged', async () => {
      const account = await userAccount();
      const totp = await created(totpFactor(account, { created: at(2) }));
      const passkey = await created(passkeyFactor(account, { created: at(1) }));
      expect(await repositories.factors.findById(totp.id)).toEqual(totp);
      expect(await repositories.factors.findById(passkey.id)).toEqual(passkey);
      expect(await repositories.factors.findById(nextId())).toBeNull();
      expect(await repositories.factors.list(account.owner, account.subjectId)).toEqual([passkey, totp]);
    });

    it("list() and hasActive() answer one account's factors only, an admin's apart from a user's", async () => {
      const user = await userAccount();
      const admin = await adminAccount();
      const ofUser = await created(totpFactor(user));
      expect(await repositories.factors.hasActive('user', user.subjectId)).toBe(false);
      const ofAdmin = await activeTotp(admin);
      expect(await repositories.factors.list('user', user.subjectId)).toEqual([ofUser]);
      expect(await repositories.factors.list('admin', admin.subjectId)).toEqual([ofAdmin]);
      expect(await repositories.factors.list('user', admin.subjectId)).toEqual([]);
      expect(await repositories.factors.hasActive('admin', admin.subjectId)).toBe(true);
      expect(await repositories.factors.hasActive('user', user.subjectId)).toBe(false);
      expect(await repositories.factors.hasActive('user', admin.subjectId)).toBe(false);
    });

    it('activate() makes a pending factor active once, with the recovery codes and the audit event it is given', async () => {
      const account = await userAccount();
      const factor = await created(totpFactor(account));
      const record = audit('factor.activated', account.subjectId);
      expect(
        await repositories.factors.activate(factor.id, at(5), { recoveryCodeDigests: digests('a') }, record),
      ).toEqual({ first: true });
      expect(await repositories.factors.findById(factor.id)).toEqual({ ...factor, activated: at(5) });
      expect(await repositories.factors.recoveryCodesLeft('user', account.subjectId)).toBe(10);
      expect(
        await repositories.factors.activate(
          factor.id,
          at(6),
          { recoveryCodeDigests: digests('b') },
          audit('factor.activated', account.subjectId),
        ),
      ).toBeNull();
      expect(await repositories.factors.activate(nextId(), at(6), {})).toBeNull();
      expect(await repositories.factors.useRecoveryCode('user', account.subjectId, 'a-3', at(7))).toBe(true);
      expect(await auditedIds()).toEqual([record.id]);
    });

    it("activate() of a passkey stores its credential and clears the registration's challenge", async () => {
      const account = await adminAccount();
      const factor = await created(passkeyFactor(account));
      const registered = credential();
      expect(await repositories.factors.findByCredentialId(registered.id)).toBeNull();
      expect(await repositories.factors.activate(factor.id, at(3), { credential: registered })).toEqual({
        first: true,
      });
      const active = { ...factor, activated: at(3), webauthn: { challenge: null, credential: registered } };
      expect(await repositories.factors.findById(factor.id)).toEqual(active);
      expect(await repositories.factors.findByCredentialId(registered.id)).toEqual(active);
      expect(await repositories.factors.findByCredentialId('unknown')).toBeNull();
    });

    it('activate() refuses a credential id another factor holds, whoever owns it, and leaves the factor pending', async () => {
      const taken = credential();
      await repositories.factors.activate((await created(passkeyFactor(await userAccount()))).id, at(1), {
        credential: taken,
      });
      const second = await created(passkeyFactor(await adminAccount()));
      const record = audit('factor.activated', second.subjectId);
      expect(
        await repositories.factors.activate(
          second.id,
          at(2),
          { credential: { ...credential(), id: taken.id } },
          record,
        ),
      ).toBeNull();
      expect(await repositories.factors.findById(second.id)).toEqual(second);
      expect((await repositories.factors.findByCredentialId(taken.id))?.owner).toBe('user');
      expect(await auditedIds()).toEqual([]);
    });

    it("activate() of a TOTP factor stores the enrolment code's step as used, so that step is refused from then on", async () => {
      const account = await userAccount();
      const factor = await created(totpFactor(account));
      expect(await repositories.factors.activate(factor.id, at(4), { totpStep: 500 })).toEqual({ first: true });
      expect(await repositories.factors.findById(factor.id)).toEqual({
        ...factor,
        activated: at(4),
        lastUsed: at(4),
        totp: { ...factor.totp!, lastStep: 500 },
      });
      expect(await repositories.factors.useTotpStep(factor.id, 500, at(5))).toBe(false);
      expect(await repositories.factors.useTotpStep(factor.id, 501, at(5))).toBe(true);
    });

    it("activate() stores the recovery codes only for the account's first active factor, and says so", async () => {
      const account = await userAccount();
      await activeTotp(account, digests('first'));
      const second = await created(totpFactor(account));
      expect(await repositories.factors.activate(second.id, at(3), { recoveryCodeDigests: digests('second') })).toEqual(
        {
          first: false,
        },
      );
      expect(await repositories.factors.useRecoveryCode('user', account.subjectId, 'second-0', at(4))).toBe(false);
      expect(await repositories.factors.useRecoveryCode('user', account.subjectId, 'first-0', at(4))).toBe(true);
    });

    it('useTotpStep() accepts only a step later than the last one accepted, and only for an active TOTP factor', async () => {
      const account = await userAccount();
      const pending = await created(totpFactor(account));
      expect(await repositories.factors.useTotpStep(pending.id, 100, at(3))).toBe(false);
      const factor = await activeTotp(account);
      expect(await repositories.factors.useTotpStep(factor.id, 100, at(3))).toBe(true);
      expect(await repositories.factors.useTotpStep(factor.id, 100, at(4))).toBe(false);
      expect(await repositories.factors.useTotpStep(factor.id, 99, at(4))).toBe(false);
      expect(await repositories.factors.findById(factor.id)).toEqual({
        ...factor,
        lastUsed: at(3),
        totp: { ...factor.totp!, lastStep: 100 },
      });
      expect(await repositories.factors.useTotpStep(factor.id, 102, at(5))).toBe(true);
      expect((await repositories.factors.findById(factor.id))?.totp?.lastStep).toBe(102);
      expect(await repositories.factors.useTotpStep(nextId(), 200, at(5))).toBe(false);
      const passkey = await created(passkeyFactor(account));
      await repositories.factors.activate(passkey.id, at(1), { credential: credential() });
      expect(await repositories.factors.useTotpStep(passkey.id, 200, at(5))).toBe(false);
    });

    it('usePasskey() stores the counter and the last use, with its audit event', async () => {
      const account = await userAccount();
      const factor = await created(passkeyFactor(account));
      const registered = credential({ counter: 0, backedUp: true });
      await repositories.factors.activate(factor.id, at(1), { credential: registered });
      const record = audit('passkey.counter_regressed', account.subjectId);
      await repositories.factors.usePasskey(factor.id, 4_294_967_295, at(9), record);
      expect(await repositories.factors.findById(factor.id)).toMatchObject({
        lastUsed: at(9),
        webauthn: { challenge: null, credential: { ...registered, counter: 4_294_967_295 } },
      });
      await repositories.factors.usePasskey(nextId(), 1, at(10), audit('passkey.counter_regressed', account.subjectId));
      expect(await auditedIds()).toEqual([record.id]);
    });

    it("remove() takes one factor; the account's recovery codes go with its last active factor only", async () => {
      const account = await userAccount();
      const first = await activeTotp(account, digests('codes'));
      const second = await activeTotp(account);
      const pending = await created(passkeyFactor(account));
      const record = audit('factor.removed', account.subjectId);
      expect(await repositories.factors.remove(first.id, record)).toBe(true);
      expect(await repositories.factors.remove(first.id, audit('factor.removed', account.subjectId))).toBe(false);
      expect(await repositories.factors.recoveryCodesLeft('user', account.subjectId)).toBe(10);
      expect(await repositories.factors.remove(second.id)).toBe(true);
      expect(await repositories.factors.recoveryCodesLeft('user', account.subjectId)).toBe(0);
      expect(await repositories.factors.list('user', account.subjectId)).toEqual([pending]);
      expect(await auditedIds()).toEqual([record.id]);
    });

    it("removeAll() takes every factor and code of the account and ends its sessions, nobody else's, with its audit event and its notice", async () => {
      const account = await userAccount();
      const bystander = await userAccount();
      await activeTotp(account, digests('mine'));
      await created(passkeyFactor(account));
      const kept = await activeTotp(bystander, digests('theirs'));
      const sessions = [
        sampleSession({ subjectId: account.subjectId }),
        sampleSession({ subjectId: bystander.subjectId }),
      ];
      for (const session of sessions) {
        const user = (await repositories.users.findById(session.subjectId))!;
        expect(await repositories.sessions.create(session, firstTokenOf(session), user)).toBe(true);
      }
      const record = audit('factors.reset', account.subjectId);
      const notice = sampleMail(9001);
      expect(await repositories.factors.removeAll('user', account.subjectId, at(20), record, notice)).toBe(2);
      expect(await repositories.mail.findById(notice.id)).not.toBeNull();
      // Nothing left to remove: no second notice.
      const again = sampleMail(9002);
      expect(await repositories.factors.removeAll('user', account.subjectId, at(21), undefined, again)).toBe(0);
      expect(await repositories.mail.findById(again.id)).toBeNull();
      expect(await repositories.factors.list('user', account.subjectId)).toEqual([]);
      expect(await repositories.factors.recoveryCodesLeft('user', account.subjectId)).toBe(0);
      expect((await repositories.sessions.findSession(sessions[0]!.id))?.revoked).toEqual(at(20));
      expect((await repositories.sessions.findSession(sessions[1]!.id))?.revoked).toBeNull();
      expect(await repositories.factors.list('user', bystander.subjectId)).toEqual([kept]);
      expect(await repositories.factors.recoveryCodesLeft('user', bystander.subjectId)).toBe(10);
      expect(await auditedIds()).toEqual([record.id]);
    });

    it('replaceRecoveryCodes() replaces the whole set: the old codes stop working', async () => {
      const account = await adminAccount();
      await activeTotp(account, digests('old'));
      expect(await repositories.factors.useRecoveryCode('admin', account.subjectId, 'old-0', at(3))).toBe(true);
      const record = audit('recovery_codes.regenerated', account.subjectId);
      await repositories.factors.replaceRecoveryCodes('admin', account.subjectId, digests('new', 10), record);
      expect(await repositories.factors.recoveryCodesLeft('admin', account.subjectId)).toBe(10);
      expect(await repositories.factors.useRecoveryCode('admin', account.subjectId, 'old-1', at(4))).toBe(false);
      expect(await repositories.factors.useRecoveryCode('admin', account.subjectId, 'new-1', at(4))).toBe(true);
      expect(await auditedIds()).toEqual([record.id]);
    });

    it('useRecoveryCode() uses a code of that account once, with its audit event, and counts what is left', async () => {
      const account = await userAccount();
      const stranger = await userAccount();
      await activeTotp(account, digests('mine', 3));
      await activeTotp(stranger, digests('theirs', 3));
      const record = audit('recovery_code.used', account.subjectId);
      expect(await repositories.factors.useRecoveryCode('user', account.subjectId, 'theirs-0', at(3))).toBe(false);
      expect(await repositories.factors.useRecoveryCode('admin', account.subjectId, 'mine-0', at(3))).toBe(false);
      expect(await repositories.factors.useRecoveryCode('user', account.subjectId, 'mine-0', at(3), record)).toBe(true);
      expect(
        await repositories.factors.useRecoveryCode(
          'user',
          account.subjectId,
          'mine-0',
          at(4),
          audit('recovery_code.used', account.subjectId),
        ),
      ).toBe(false);
      expect(await repositories.factors.recoveryCodesLeft('user', account.subjectId)).toBe(2);
      expect(await repositories.factors.recoveryCodesLeft('user', stranger.subjectId)).toBe(3);
      expect(await auditedIds()).toEqual([record.id]);
    });

    it('listSealedSecrets() answers every TOTP secret, sealed; reseal() replaces one', async () => {
      const account = await userAccount();
      const pending = await created(totpFactor(account));
      const active = await activeTotp(account);
      await created(passkeyFactor(account));
      const sealed = (await repositories.factors.listSealedSecrets()).sort((a, b) => (a.id < b.id ? -1 : 1));
      expect(sealed).toEqual([
        { id: pending.id, secret: pending.totp!.secret },
        { id: active.id, secret: active.totp!.secret },
      ]);
      await repositories.factors.reseal(active.id, { keyId: 'key-2', ciphertext: 'sealed-again' });
      expect(await repositories.factors.findById(active.id)).toEqual({
        ...active,
        totp: { secret: { keyId: 'key-2', ciphertext: 'sealed-again' }, lastStep: null },
      });
    });

    it("a deleted user's factors and recovery codes go with it", async () => {
      const account = await userAccount();
      const factor = await activeTotp(account, digests('gone'));
      expect(await repositories.users.delete(account.subjectId, at(30))).toBe(true);
      expect(await repositories.factors.findById(factor.id)).toBeNull();
      expect(await repositories.factors.list('user', account.subjectId)).toEqual([]);
      expect(await repositories.factors.recoveryCodesLeft('user', account.subjectId)).toBe(0);
    });

    /** Runs `ROUNDS` rounds of `RACERS` concurrent calls, half on each instance; answers each round's successes. */
    async function race(
      round: (instance: Repositories) => Promise<boolean>,
      setUp: () => Promise<void>,
    ): Promise<number[]> {
      const winners: number[] = [];
      for (let index = 0; index < ROUNDS; index += 1) {
        await setUp();
        const results = await Promise.all(
          Array.from({ length: RACERS }, (_, racer) => round(racer % 2 === 0 ? repositories : other)),
        );
        winners.push(results.filter(Boolean).length);
      }
      return winners;
    }
    const once = Array.from({ length: ROUNDS }, () => 1);

    it(`of ${RACERS} concurrent uses of one TOTP step, on two instances, exactly one wins: ${ROUNDS} rounds`, async () => {
      const factor = await activeTotp(await userAccount());
      let step = 1000;
      const winners = await race(
        (instance) => instance.factors.useTotpStep(factor.id, step, at(1)),
        async () => void (step += 1),
      );
      expect(winners).toEqual(once);
      expect((await repositories.factors.findById(factor.id))?.totp?.lastStep).toBe(step);
    });

    it(`of ${RACERS} concurrent uses of one recovery code, on two instances, exactly one wins: ${ROUNDS} rounds`, async () => {
      const account = await userAccount();
      await activeTotp(account, digests('race', ROUNDS));
      let code = -1;
      const winners = await race(
        (instance) =>
          instance.factors.useRecoveryCode(
            'user',
            account.subjectId,
            `race-${code}`,
            at(1),
            audit('recovery_code.used', account.subjectId),
          ),
        async () => void (code += 1),
      );
      expect(winners).toEqual(once);
      expect(await repositories.factors.recoveryCodesLeft('user', account.subjectId)).toBe(0);
      expect((await auditedIds()).length).toBe(ROUNDS);
    });

    it(`of ${RACERS} concurrent activations of one factor, on two instances, exactly one wins: ${ROUNDS} rounds`, async () => {
      const account = await adminAccount();
      let factor: Factor | undefined;
      const winners = await race(
        (instance) =>
          instance.factors
            .activate(factor!.id, at(1), { credential: credential({ id: `credential-of-${factor!.id}` }) })
            .then((activated) => activated !== null),
        async () => void (factor = await created(passkeyFactor(account))),
      );
      expect(winners).toEqual(once);
    });

    it(`of two pending factors of one account activated at once, on two instances, exactly one is the first: ${ROUNDS} rounds`, async () => {
      const firsts: number[] = [];
      const working: boolean[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const account = await userAccount();
        const [one, two] = [await created(totpFactor(account)), await created(passkeyFactor(account))];
        const results = await Promise.all([
          repositories.factors.activate(one.id, at(1), { totpStep: 7, recoveryCodeDigests: digests(`one-${round}`) }),
          other.factors.activate(two.id, at(1), {
            credential: credential(),
            recoveryCodeDigests: digests(`two-${round}`),
          }),
        ]);
        firsts.push(results.filter((result) => result?.first).length);
        const winner = results[0]?.first ? 'one' : 'two';
        working.push(
          await repositories.factors.useRecoveryCode('user', account.subjectId, `${winner}-${round}-0`, at(2)),
        );
      }
      expect(firsts).toEqual(once);
      expect(working).toEqual(Array.from({ length: ROUNDS }, () => true));
    });

    it('concurrent removals of the last active factors never leave recovery codes without a factor', async () => {
      const left: number[] = [];
      for (let round = 0; round < 10; round += 1) {
        const account = await userAccount();
        const first = await activeTotp(account, digests(`round-${round}`));
        const second = await activeTotp(account);
        await Promise.all([repositories.factors.remove(first.id), other.factors.remove(second.id)]);
        left.push(await repositories.factors.recoveryCodesLeft('user', account.subjectId));
      }
      expect(left).toEqual(Array.from({ length: 10 }, () => 0));
    });

    it('concurrent replacements of the recovery codes leave exactly one whole set', async () => {
      const left: number[] = [];
      for (let round = 0; round < 10; round += 1) {
        const account = await userAccount();
        await activeTotp(account, digests(`round-${round}`));
        await Promise.all(
          Array.from({ length: 4 }, (_, racer) =>
            (racer % 2 === 0 ? repositories : other).factors.replaceRecoveryCodes(
              'user',
              account.subjectId,
              digests(`set-${racer}`),
            ),
          ),
        );
        left.push(await repositories.factors.recoveryCodesLeft('user', account.subjectId));
      }
      expect(left).toEqual(Array.from({ length: 10 }, () => 10));
    });
  });
}
