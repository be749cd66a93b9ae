import { beforeEach, describe, expect, it } from '../testing/test-api.ts';
import { FakePasskeyCeremonies } from '../testing/fake-factor-ports.ts';
import { factorEnrolment, proofsFixture } from '../testing/factor-fixture.ts';
import type { SignInChallenge } from '../sign-in/sign-in-challenge.ts';
import { addSeconds } from '../shared/clock.ts';
import type { SubjectKind } from '../shared/identity.ts';
import { challengeDigest } from '../sign-in/sign-in-challenge.ts';
import { SECOND_FACTOR_RULES } from './second-factor-rules.ts';

const USER = '00000000-0000-4000-8000-00000000aaaa';
const OTHER_USER = '00000000-0000-4000-8000-00000000bbbb';
const PERIOD = SECOND_FACTOR_RULES.totp.periodSeconds;
const RECOVERY = ['ABCD-EFGH-JKLM', 'NPQR-STUV-WXYZ'];
const { assertion } = FakePasskeyCeremonies;

function setUp() {
  const { repositories, clock, ids, codes, box, logger, proofs } = proofsFixture();
  const enrol = factorEnrolment({ factors: repositories.factors, codes, box, ids });
  const actions = () => repositories.audit.events.map((event) => event.action);

  /** A challenge of the passkey options, as the passwordless sign-in stores it. */
  async function passkeyChallenge(owner: SubjectKind, webauthnChallenge: string): Promise<string> {
    const now = clock.now();
    const challenge: SignInChallenge = {
      id: challengeDigest(webauthnChallenge),
      owner,
      subjectId: null,
      kinds: ['webauthn'],
      webauthnChallenge,
      methods: [],
      created: now,
      expires: addSeconds(now, SECOND_FACTOR_RULES.challenge.seconds),
      failures: 0,
      completed: null,
      clientAddress: null,
      userAgent: null,
    };
    await repositories.signInChallenges.create(challenge);
    return webauthnChallenge;
  }
  return { repositories, clock, codes, logger, proofs, enrol, actions, passkeyChallenge };
}

describe('SecondFactorProofs', () => {
  let t: ReturnType<typeof setUp>;
  beforeEach(() => {
    t = setUp();
  });

  describe('proveCode() with a TOTP code', () => {
    it("proves `otp` with the current code of the account's active TOTP factor", async () => {
      const { secret } = await t.enrol.totp('user', USER, t.clock.now());
      const code = t.codes.codeAt(secret, t.clock.now());
      expect(await t.proofs.proveCode('user', USER, code, t.clock.now())).toBe('otp');
    });

    it('refuses the same code a second time, even much later within its window (RFC 6238 §5.2)', async () => {
      const { secret } = await t.enrol.totp('user', USER, t.clock.now());
      const code = t.codes.codeAt(secret, t.clock.now());
      await t.proofs.proveCode('user', USER, code, t.clock.now());
      t.clock.advance(PERIOD);
      expect(await t.proofs.proveCode('user', USER, code, t.clock.now())).toBeNull();
    });

    it('refuses a code of a step before the last one used, and takes the next step', async () => {
      const { secret } = await t.enrol.totp('user', USER, t.clock.now());
      const earlier = t.codes.codeAt(secret, t.clock.now());
      t.clock.advance(PERIOD);
      expect(await t.proofs.proveCode('user', USER, t.codes.codeAt(secret, t.clock.now()), t.clock.now())).toBe('otp');
      expect(await t.proofs.proveCode('user', USER, earlier, t.clock.now())).toBeNull();
      t.clock.advance(PERIOD);
      expect(await t.proofs.proveCode('user', USER, t.codes.codeAt(secret, t.clock.now()), t.clock.now())).toBe('otp');
    });

    it('accepts one step of drift either side and no more', async () => {
      const { secret } = await t.enrol.totp('user', USER, t.clock.now());
      const now = t.clock.now();
      expect(
        await t.proofs.proveCode('user', USER, t.codes.codeAt(secret, addSeconds(now, -2 * PERIOD)), now),
      ).toBeNull();
      expect(await t.proofs.proveCode('user', USER, t.codes.codeAt(secret, addSeconds(now, -PERIOD)), now)).toBe('otp');
      expect(
        await t.proofs.proveCode('user', USER, t.codes.codeAt(secret, addSeconds(now, 2 * PERIOD)), now),
      ).toBeNull();
      expect(await t.proofs.proveCode('user', USER, t.codes.codeAt(secret, addSeconds(now, PERIOD)), now)).toBe('otp');
    });

    it('proves once when one code is sent many times at once', async () => {
      const { secret } = await t.enrol.totp('user', USER, t.clock.now());
      const code = t.codes.codeAt(secret, t.clock.now());
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => t.proofs.proveCode('user', USER, code, t.clock.now())),
      );
      expect(answers.filter((answer) => answer === 'otp')).toHaveLength(1);
    });

    it('takes a code typed with a space in the middle', async () => {
      const { secret } = await t.enrol.totp('user', USER, t.clock.now());
      const code = t.codes.codeAt(secret, t.clock.now());
      expect(await t.proofs.proveCode('user', USER, `${code.slice(0, 3)} ${code.slice(3)}`, t.clock.now())).toBe('otp');
    });

    it("refuses another account's code, a pending factor's code, and an admin's code for a user of the same id", async () => {
      const { secret: others } = await t.enrol.totp('user', OTHER_USER, t.clock.now());
      const { secret: admins } = await t.enrol.totp('admin', USER, t.clock.now());
      await t.enrol.totp('user', USER, t.clock.now());
      const now = t.clock.now();
      expect(await t.proofs.proveCode('user', USER, t.codes.codeAt(others, now), now)).toBeNull();
      expect(await t.proofs.proveCode('user', USER, t.codes.codeAt(admins, now), now)).toBeNull();
    });

    it('tries every active TOTP factor of the account', async () => {
      await t.enrol.totp('user', USER, t.clock.now());
      const { secret: second } = await t.enrol.totp('user', USER, t.clock.now());
      expect(await t.proofs.proveCode('user', USER, t.codes.codeAt(second, t.clock.now()), t.clock.now())).toBe('otp');
    });

    it('refuses a code whose factor cannot be opened, logging the factor but not the secret', async () => {
      const { id, secret } = await t.enrol.totp('user', USER, t.clock.now());
      await t.repositories.factors.reseal(id, { keyId: 'a-lost-key', ciphertext: 'garbage' });
      expect(await t.proofs.proveCode('user', USER, t.codes.codeAt(secret, t.clock.now()), t.clock.now())).toBeNull();
      expect(t.logger.entries.filter((entry) => entry.level === 'error')).toHaveLength(1);
      expect(t.logger.text()).toContain(id);
      expect(t.logger.text()).not.toContain(secret);
    });
  });

  describe('proveCode() with a recovery code', () => {
    it('proves `otp` once per code, whatever its case, spaces and dashes, and audits its use', async () => {
      await t.enrol.recoveryCodes('user', USER, RECOVERY);
      expect(await t.proofs.proveCode('user', USER, ' abcd efgh-jklm ', t.clock.now())).toBe('otp');
      expect(await t.proofs.proveCode('user', USER, RECOVERY[0]!, t.clock.now())).toBeNull();
      expect(await t.repositories.factors.recoveryCodesLeft('user', USER)).toBe(1);
      expect(t.repositories.audit.events).toMatchObject([
        { action: 'recovery_code.used', actor: { type: 'user', id: USER }, target: { type: 'users', id: USER } },
      ]);
      expect(JSON.stringify(t.repositories.audit.events)).not.toContain('EFGH');
    });

    it('proves once when one recovery code is sent many times at once', async () => {
      await t.enrol.recoveryCodes('user', USER, RECOVERY);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => t.proofs.proveCode('user', USER, RECOVERY[1]!, t.clock.now())),
      );
      expect(answers.filter((answer) => answer === 'otp')).toHaveLength(1);
      expect(t.actions()).toEqual(['recovery_code.used']);
    });

    it("refuses another account's recovery code, and an empty or absurdly long one", async () => {
      await t.enrol.recoveryCodes('user', OTHER_USER, RECOVERY);
      expect(await t.proofs.proveCode('user', USER, RECOVERY[0]!, t.clock.now())).toBeNull();
      expect(await t.proofs.proveCode('admin', OTHER_USER, RECOVERY[0]!, t.clock.now())).toBeNull();
      expect(await t.proofs.proveCode('user', OTHER_USER, ' - ', t.clock.now())).toBeNull();
      expect(await t.proofs.proveCode('user', OTHER_USER, 'A'.repeat(65), t.clock.now())).toBeNull();
      expect(t.actions()).toEqual([]);
    });
  });

  describe('proveCredential()', () => {
    it('proves `hwk` for a device-bound passkey and `swk` for a synced one, naming its account', async () => {
      const bound = await t.enrol.passkey('user', USER, t.clock.now(), { counter: 3 });
      const synced = await t.enrol.passkey('user', USER, t.clock.now(), { backedUp: true });
      const now = t.clock.now();
      expect(await t.proofs.proveCredential('user', USER, assertion(bound.credential, 'c1'), 'c1', now)).toEqual({
        method: 'hwk',
        subjectId: USER,
        userVerified: true,
      });
      const syncedAnswer = assertion(synced.credential, 'c2', { counter: 0, userVerified: false });
      expect(await t.proofs.proveCredential('user', null, syncedAnswer, 'c2', now)).toEqual({
        method: 'swk',
        subjectId: USER,
        userVerified: false,
      });
    });

    it('stores the counter and the last use', async () => {
      const { id, credential } = await t.enrol.passkey('user', USER, t.clock.now(), { counter: 3 });
      t.clock.advance(60);
      await t.proofs.proveCredential('user', USER, assertion(credential, 'c', { counter: 7 }), 'c', t.clock.now());
      const stored = await t.repositories.factors.findById(id);
      expect(stored?.webauthn?.credential?.counter).toBe(7);
      expect(stored?.lastUsed).toEqual(t.clock.now());
    });

    it("refuses another account's passkey, another kind's, a wrong challenge and an unknown credential", async () => {
      const { credential } = await t.enrol.passkey('user', OTHER_USER, t.clock.now());
      const admin = await t.enrol.passkey('admin', USER, t.clock.now());
      const now = t.clock.now();
      expect(await t.proofs.proveCredential('user', USER, assertion(credential, 'c'), 'c', now)).toBeNull();
      expect(await t.proofs.proveCredential('user', null, assertion(admin.credential, 'c'), 'c', now)).toBeNull();
      expect(await t.proofs.proveCredential('user', OTHER_USER, assertion(credential, 'other'), 'c', now)).toBeNull();
      const unknown = { ...credential, id: 'never-registered' };
      expect(await t.proofs.proveCredential('user', null, assertion(unknown, 'c'), 'c', now)).toBeNull();
      expect(await t.proofs.proveCredential('user', null, { id: 42 }, 'c', now)).toBeNull();
    });

    it('logs and audits a counter that did not advance, without refusing it, and keeps the highest', async () => {
      const { id, credential } = await t.enrol.passkey('user', USER, t.clock.now(), { counter: 9 });
      const answer = assertion(credential, 'c', { counter: 5 });
      expect(await t.proofs.proveCredential('user', USER, answer, 'c', t.clock.now())).toMatchObject({ method: 'hwk' });
      expect(t.repositories.audit.events).toMatchObject([
        { action: 'passkey.counter_regressed', actor: { type: 'user', id: USER }, target: { type: 'factors', id } },
      ]);
      expect(t.logger.entries).toMatchObject([{ level: 'warn', fields: { factorId: id, stored: 9, received: 5 } }]);
      expect((await t.repositories.factors.findById(id))?.webauthn?.credential?.counter).toBe(9);
    });

    it('never takes a counter of 0 for a regression', async () => {
      const { credential } = await t.enrol.passkey('user', USER, t.clock.now(), { counter: 9 });
      await t.proofs.proveCredential('user', USER, assertion(credential, 'c', { counter: 0 }), 'c', t.clock.now());
      expect(t.actions()).toEqual([]);
    });
  });

  describe('provePasskeyChallenge()', () => {
    it('proves an assertion over a challenge of the passkey options, once', async () => {
      const { credential } = await t.enrol.passkey('user', USER, t.clock.now());
      const challenge = await t.passkeyChallenge('user', 'options-challenge');
      const first = await t.proofs.provePasskeyChallenge('user', null, assertion(credential, challenge), t.clock.now());
      expect(first).toMatchObject({ method: 'hwk', subjectId: USER });
      const again = assertion(credential, challenge, { counter: 2 });
      expect(await t.proofs.provePasskeyChallenge('user', null, again, t.clock.now())).toBeNull();
    });

    it('proves once when one assertion is sent many times at once', async () => {
      const { credential } = await t.enrol.passkey('user', USER, t.clock.now());
      const answer = assertion(credential, await t.passkeyChallenge('user', 'options-challenge'));
      const proofs = await Promise.all(
        Array.from({ length: 10 }, () => t.proofs.provePasskeyChallenge('user', null, answer, t.clock.now())),
      );
      expect(proofs.filter((proof) => proof !== null)).toHaveLength(1);
    });

    it('holds the assertion to the session account when one is given', async () => {
      const { credential } = await t.enrol.passkey('user', USER, t.clock.now());
      const answer = assertion(credential, await t.passkeyChallenge('user', 'options-challenge'));
      expect(await t.proofs.provePasskeyChallenge('user', OTHER_USER, answer, t.clock.now())).toBeNull();
    });

    it("refuses an admin options challenge for a user, an expired one, one never issued, and a login's", async () => {
      const { credential } = await t.enrol.passkey('user', USER, t.clock.now());
      const admins = await t.passkeyChallenge('admin', 'admin-challenge');
      expect(
        await t.proofs.provePasskeyChallenge('user', null, assertion(credential, admins), t.clock.now()),
      ).toBeNull();
      const expiring = await t.passkeyChallenge('user', 'expiring');
      t.clock.advance(SECOND_FACTOR_RULES.challenge.seconds);
      expect(
        await t.proofs.provePasskeyChallenge('user', null, assertion(credential, expiring), t.clock.now()),
      ).toBeNull();
      expect(
        await t.proofs.provePasskeyChallenge('user', null, assertion(credential, 'never'), t.clock.now()),
      ).toBeNull();
      // A login's challenge (it has its account) is answered at the second step only.
      const login = await t.passkeyChallenge('user', 'a-login-challenge');
      const stored = await t.repositories.signInChallenges.find(challengeDigest(login));
      await t.repositories.signInChallenges.create({ ...stored!, subjectId: USER });
      expect(
        await t.proofs.provePasskeyChallenge('user', null, assertion(credential, login), t.clock.now()),
      ).toBeNull();
      expect(await t.proofs.provePasskeyChallenge('user', null, { id: credential.id }, t.clock.now())).toBeNull();
    });
  });
});
