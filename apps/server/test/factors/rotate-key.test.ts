import { openDatabase } from '@uas/adapters-persistence';
import { generateSync } from 'otplib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runOperatorProgram } from '../../src/cli/program';
import { loadConfig } from '../../src/config';
import { startTestApplication, type TestApplication } from '../support/test-application';

describe('uas factors rotate-key', () => {
  let t: TestApplication | undefined;
  const saved = { ...process.env };
  afterEach(async () => {
    process.env = { ...saved };
    vi.restoreAllMocks();
    await t?.close();
  });

  it('seals every TOTP secret again under a new factor-secret key, audited, and the codes (recovery ones too) keep working', async () => {
    t = await startTestApplication('sqlite');
    const { useCases, clock } = t;
    const created = await useCases.users.create({ email: 'rotate@example.com', password: 'rotate-password-1' });
    const grant = (await useCases.userSignIn.password.login('rotate@example.com', 'rotate-password-1', '127.0.0.1'))
      .session!;
    const who = await useCases.userAuth.authenticate(grant.accessToken);
    const codeNow = (secret: string) => generateSync({ secret, epoch: Math.floor(clock.now().getTime() / 1000) });
    const secrets: string[] = [];
    const recoveryCodes: string[] = [];
    for (let n = 0; n < 3; n++) {
      // Beside the first, each enrolment is stepped up with one of its recovery codes.
      const proof = n === 0 ? {} : { code: recoveryCodes.shift() };
      const { factor, totp } = await useCases.factors.enrol(who, 'totp', proof);
      const { recoveryCodes: first } = await useCases.factors.verify(who, factor.id, { code: codeNow(totp!.secret) });
      recoveryCodes.push(...(first ?? []));
      secrets.push(totp!.secret);
    }

    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    process.env = { ...saved, ...t.env };
    expect(await runOperatorProgram(['factors', 'rotate-key'])).toBe(0);
    expect(written.join('')).toMatch(/New factor-secret key \S+ in use; 3 TOTP secrets sealed again under it/);

    const config = loadConfig(t.env);
    const database = await openDatabase(config.database);
    try {
      const [current] = await database.repositories.secrets.list('factor-secret');
      const sealed = await database.repositories.factors.listSealedSecrets();
      expect(sealed.map((item) => item.secret.keyId)).toEqual([current!.id, current!.id, current!.id]);
      const events = await database.repositories.audit.list({ page: 1, size: 100 });
      expect(events.events.filter((event) => event.action === 'secret.rotated').length).toBeGreaterThanOrEqual(4);
    } finally {
      await database.close();
    }
    // The running instance opens what the command sealed: a code of each factor still signs in.
    clock.advance(30);
    const proved = await useCases.secondFactorProofs.proveCode('user', created.id, codeNow(secrets[2]!), clock.now());
    expect(proved).toBe('otp');
    // Once the instance has read the new key (a minute), recovery codes kept under the old key still work.
    clock.advance(61);
    const recovered = await useCases.secondFactorProofs.proveCode('user', created.id, recoveryCodes[0]!, clock.now());
    expect(recovered).toBe('otp');
  });
});
