import { describe, expect, it } from '../testing/test-api.ts';
import { AccountMail, DEFAULT_ACCOUNT_MAIL_POLICY } from '../mail/account-mail.ts';
import { MailService } from '../mail/mail-service.ts';
import { DEFAULT_MAIL_TEMPLATES } from '../mail/mail-template.ts';
import { adminPrincipals, userPrincipals } from '../sessions/principal.ts';
import type { Session } from '../sessions/session.ts';
import type { Identity } from '../shared/identity.ts';
import { proofsFixture } from '../testing/factor-fixture.ts';
import { firstTokenOf, sampleSession } from '../testing/sample-session.ts';
import { sampleUser } from '../testing/user.repository.contract.ts';
import { SecondStepLock } from '../sign-in/second-step-lock.ts';
import { FactorService } from './factor-service.ts';
import { SECOND_FACTOR_RULES } from './second-factor-rules.ts';
import type { PasskeyCeremonies } from './passkey-ceremonies.ts';

type RegistrationInput = Parameters<PasskeyCeremonies['registrationOptions']>[0];

async function setup() {
  const { repositories, clock, ids, codes, ceremonies, box, logger, proofs } = proofsFixture();
  const { audit, factors, sessions } = repositories;
  const mail = new MailService({
    box,
    templates: { of: (kind) => DEFAULT_MAIL_TEMPLATES[kind] },
    logger,
    queue: repositories.mail,
    clock,
    ids,
  });
  const accountMail = new AccountMail({
    mail,
    counters: repositories.rateCounters,
    clock,
    logger,
    policy: DEFAULT_ACCOUNT_MAIL_POLICY,
  });
  const service = new FactorService({
    factors,
    sessions,
    principals: { admin: adminPrincipals(repositories.admins), user: userPrincipals(repositories.users, clock) },
    codes,
    ceremonies,
    box,
    proofs,
    lock: new SecondStepLock({ attempts: repositories.attempts, audit, clock, ids }),
    accountMail,
    clock,
    ids,
    issuer: 'Example',
  });
  const user = sampleUser();
  await repositories.users.insert(user);
  /** A live session of the user, its login's methods `amr`. */
  const login = async (amr: Session['amr'] = ['pwd'], account = user): Promise<Identity> => {
    const session = sampleSession({ kind: 'user', subjectId: account.id, created: clock.now(), amr });
    await sessions.create(session, firstTokenOf(session), account);
    return { kind: 'user', subjectId: account.id, sessionId: session.id };
  };
  const who = await login();
  /** Enrols and verifies a TOTP factor; answers its secret and the activation. */
  const activeTotp = async (identity = who) => {
    const enrolment = await service.enrol(identity, 'totp');
    const activation = await service.verify(identity, enrolment.factor.id, {
      code: codes.codeAt(enrolment.totp!.secret, clock.now()),
    });
    return { secret: enrolment.totp!.secret, ...activation };
  };
  const actions = async (): Promise<string[]> =>
    (await audit.list({ page: 1, size: 100 })).events.map((event) => event.action);
  return { repositories, clock, codes, ceremonies, box, proofs, service, user, who, login, activeTotp, actions };
}

describe('FactorService', () => {
  it('enrols TOTP: a pending factor whose secret is sealed under factor-secret, its otpauth URI and QR code', async () => {
    const { service, who, user, repositories } = await setup();
    const { factor, totp, webauthn } = await service.enrol(who, 'totp');
    expect(factor.activated).toBeNull();
    expect(webauthn).toBeNull();
    expect(totp!.uri).toBe(`otpauth://totp/Example:${encodeURIComponent(user.email)}?secret=${totp!.secret}`);
    expect(totp!.qrSvg.startsWith('<svg')).toBe(true);
    const stored = await repositories.factors.findById(factor.id);
    expect(JSON.stringify(stored)).not.toContain(totp!.secret);
  });

  it('verify() activates with a current code, returns 10 recovery codes for the first factor only, and uses the step up', async () => {
    const { service, who, codes, clock, proofs, activeTotp, actions, user, login } = await setup();
    const first = await activeTotp();
    expect(first.factor.activated).toEqual(clock.now());
    expect(first.recoveryCodes).toHaveLength(SECOND_FACTOR_RULES.recoveryCodes.count);
    // The code that verified cannot sign in right after.
    expect(await proofs.proveCode('user', user.id, codes.codeAt(first.secret, clock.now()), clock.now())).toBeNull();
    clock.advance(30);
    expect(await proofs.proveCode('user', user.id, codes.codeAt(first.secret, clock.now()), clock.now())).toBe('otp');
    // Beside an active factor, a further one is enrolled by a session with a recent second step.
    const second = await activeTotp(await login(['pwd', 'otp', 'mfa']));
    expect(second.recoveryCodes).toBeNull();
    expect((await service.list('user', who.subjectId)).recoveryCodesLeft).toBe(10);
    expect((await actions()).filter((action) => action === 'factor.activated')).toHaveLength(2);
  });

  it("verify() stores the enrolment code's step with the activation: that code never proves anything after", async () => {
    const { service, who, codes, clock, proofs, user, repositories } = await setup();
    const { factor, totp } = await service.enrol(who, 'totp');
    const code = codes.codeAt(totp!.secret, clock.now());
    const activation = await service.verify(who, factor.id, { code });
    const stored = await repositories.factors.findById(factor.id);
    expect(stored?.totp?.lastStep).not.toBeNull();
    expect(stored?.lastUsed).toEqual(clock.now());
    expect(activation.factor.totp?.lastStep).toBe(stored?.totp?.lastStep);
    expect(await proofs.proveCode('user', user.id, code, clock.now())).toBeNull();
  });

  it('of two pending factors verified at once as the first, exactly one answers recovery codes, and those work: 25 rounds', async () => {
    const { service, codes, clock, proofs, login, repositories } = await setup();
    const carried: number[] = [];
    const working: (string | null)[] = [];
    for (let round = 0; round < 25; round += 1) {
      const other = sampleUser();
      await repositories.users.insert(other);
      const who = await login(['pwd'], other);
      const totp = await service.enrol(who, 'totp');
      const passkey = await service.enrol(who, 'webauthn');
      const activations = await Promise.all([
        service.verify(who, totp.factor.id, { code: codes.codeAt(totp.totp!.secret, clock.now()) }),
        service.verify(who, passkey.factor.id, {
          credential: { id: `cred-${round}`, challenge: passkey.webauthn!.challenge as string },
        }),
      ]);
      const given = activations.flatMap((activation) => (activation.recoveryCodes ? [activation.recoveryCodes] : []));
      carried.push(given.length);
      working.push(given[0] ? await proofs.proveCode('user', other.id, given[0][3]!, clock.now()) : null);
    }
    expect(carried).toEqual(Array.from({ length: 25 }, () => 1));
    expect(working).toEqual(Array.from({ length: 25 }, () => 'otp'));
  });

  it("verify() refuses a wrong code (invalid_second_factor), an active factor (409), another account's (404), a stale one", async () => {
    const { service, who, codes, clock, login, repositories } = await setup();
    const { factor, totp } = await service.enrol(who, 'totp');
    await expect(service.verify(who, factor.id, { code: '000000' })).rejects.toMatchObject({
      code: 'invalid_second_factor',
    });
    await expect(service.verify(who, factor.id, {})).rejects.toMatchObject({ code: 'invalid_attribute' });
    const other = sampleUser();
    await repositories.users.insert(other);
    const stranger: Identity = { kind: 'user', subjectId: other.id, sessionId: 'x' };
    const code = codes.codeAt(totp!.secret, clock.now());
    await expect(service.verify(stranger, factor.id, { code })).rejects.toMatchObject({ code: 'not_found' });
    await expect(service.verify({ ...who, kind: 'admin' }, factor.id, { code })).rejects.toMatchObject({
      code: 'not_found',
    });
    await service.verify(who, factor.id, { code });
    await expect(service.verify(who, factor.id, { code })).rejects.toMatchObject({ code: 'factor_already_active' });
    const late = await service.enrol(await login(['pwd', 'otp', 'mfa']), 'totp');
    clock.advance(SECOND_FACTOR_RULES.enrolment.pendingSeconds + 1);
    await expect(
      service.verify(who, late.factor.id, { code: codes.codeAt(late.totp!.secret, clock.now()) }),
    ).rejects.toMatchObject({ code: 'invalid_second_factor' });
  });

  it(`enrols at most ${SECOND_FACTOR_RULES.enrolment.maxFactors} factors per account, and refuses an unknown kind`, async () => {
    const { service, who } = await setup();
    for (let n = 0; n < SECOND_FACTOR_RULES.enrolment.maxFactors; n++) await service.enrol(who, 'totp');
    await expect(service.enrol(who, 'totp')).rejects.toMatchObject({ code: 'invalid_attribute' });
    await expect(service.enrol(who, 'sms')).rejects.toMatchObject({ code: 'invalid_attribute' });
  });

  it("enrols a passkey: options excluding the account's passkeys, verified against the stored challenge", async () => {
    const { service, who, ceremonies, login } = await setup();
    const first = await service.enrol(who, 'webauthn');
    const challenge = first.webauthn!.challenge as string;
    await expect(
      service.verify(who, first.factor.id, { credential: { id: 'cred-1', challenge: 'another' } }),
    ).rejects.toMatchObject({ code: 'invalid_second_factor' });
    const activated = await service.verify(who, first.factor.id, { credential: { id: 'cred-1', challenge } });
    expect(activated.factor.webauthn?.credential?.id).toBe('cred-1');
    expect(activated.recoveryCodes).toHaveLength(10);
    let excluded: readonly string[] = [];
    const options = ceremonies.registrationOptions.bind(ceremonies);
    ceremonies.registrationOptions = async (input: RegistrationInput) => {
      excluded = input.exclude.map((credential) => credential.id);
      return options(input);
    };
    await service.enrol(await login(['pwd', 'hwk', 'mfa']), 'webauthn');
    expect(excluded).toEqual(['cred-1']);
  });

  it('remove() and new recovery codes need a recent second step in the session, or a proof sent along', async () => {
    const { service, who, codes, clock, login, activeTotp, actions } = await setup();
    const { factor, secret } = await activeTotp();
    await expect(service.remove(who, factor.id, {})).rejects.toMatchObject({ code: 'second_factor_required' });
    await expect(service.regenerateRecoveryCodes(who, {})).rejects.toMatchObject({ code: 'second_factor_required' });
    await expect(service.regenerateRecoveryCodes(who, { code: '999999' })).rejects.toMatchObject({
      code: 'invalid_second_factor',
    });
    const stepped = await login(['pwd', 'otp', 'mfa']);
    const renewed = await service.regenerateRecoveryCodes(stepped, {});
    expect(renewed).toHaveLength(10);
    clock.advance(SECOND_FACTOR_RULES.stepUpSeconds + 1);
    await expect(service.remove(stepped, factor.id, {})).rejects.toMatchObject({ code: 'second_factor_required' });
    // A recovery code of the new set proves it, once.
    await service.regenerateRecoveryCodes(who, { code: renewed[0] });
    await expect(service.regenerateRecoveryCodes(who, { code: renewed[0] })).rejects.toMatchObject({
      code: 'invalid_second_factor',
    });
    await service.remove(who, factor.id, { code: codes.codeAt(secret, clock.now()) });
    expect(await service.list('user', who.subjectId)).toEqual({ factors: [], recoveryCodesLeft: 0 });
    const recorded = await actions();
    for (const action of ['factor.removed', 'recovery_codes.regenerated', 'recovery_code.used']) {
      expect(recorded.includes(action)).toBe(true);
    }
  });

  it('removing a pending factor, or any while the account has no active one, needs no step-up', async () => {
    const { service, who, activeTotp, actions, login } = await setup();
    const abandoned = await service.enrol(who, 'webauthn');
    await service.remove(who, abandoned.factor.id, {});
    const { factor } = await activeTotp();
    const pending = await service.enrol(await login(['pwd', 'otp', 'mfa']), 'totp');
    await service.remove(who, pending.factor.id, {});
    // An active factor is what a step-up protects.
    await expect(service.remove(who, factor.id, {})).rejects.toMatchObject({ code: 'second_factor_required' });
    expect((await service.list('user', who.subjectId)).factors.map((listed) => listed.id)).toEqual([factor.id]);
    expect((await actions()).filter((action) => action === 'factor.removed')).toHaveLength(2);
  });

  it("an admin's reset removes every factor and code, ends the user's sessions, audits and mails a notice", async () => {
    const { service, activeTotp, repositories, clock, user, actions, login } = await setup();
    await activeTotp();
    await service.enrol(await login(['pwd', 'otp', 'mfa']), 'webauthn');
    const admin = {
      actor: { type: 'admin' as const, id: 'admin-1' },
      request: { requestId: null, clientAddress: null, userAgent: null },
    };
    expect((await service.listOfUser(user.id)).factors).toHaveLength(2);
    await service.resetOfUser(user.id, admin);
    expect(await service.listOfUser(user.id)).toEqual({ factors: [], recoveryCodesLeft: 0 });
    expect(await repositories.sessions.listLive('user', user.id, clock.now(), 10)).toEqual([]);
    expect((await actions()).filter((action) => action === 'factors.reset')).toHaveLength(1);
    const { messages } = await repositories.mail.list({ page: 1, size: 10 });
    expect(messages.map((message) => [message.kind, message.recipient])).toEqual([['factors_reset', user.email]]);
    await expect(service.listOfUser('unknown')).rejects.toMatchObject({ code: 'not_found' });
    await expect(service.resetOfUser('unknown', admin)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('resealSecrets() seals every TOTP secret again, which then still verifies codes', async () => {
    const { service, activeTotp, repositories, proofs, codes, clock, user } = await setup();
    const { factor, secret } = await activeTotp();
    let resealed = '';
    const reseal = repositories.factors.reseal.bind(repositories.factors);
    repositories.factors.reseal = async (id, sealed) => {
      resealed = id;
      return reseal(id, sealed);
    };
    const progress: string[] = [];
    expect(await service.resealSecrets((done, total) => progress.push(`${done}/${total}`))).toBe(1);
    expect(progress).toEqual(['1/1']);
    expect(resealed).toBe(factor.id);
    clock.advance(30);
    expect(await proofs.proveCode('user', user.id, codes.codeAt(secret, clock.now()), clock.now())).toBe('otp');
  });
});
