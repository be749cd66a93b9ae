import { describe, expect, it } from 'vitest';
import { SignJWT, generateKeyPair, base64url, decodeProtectedHeader, decodeJwt } from 'jose';
import { DatabaseUnavailableError, InvalidTokenError, type SigningKey } from '@uas/domain';
import { InMemoryAuditTrail, InMemorySigningKeyRepository, ManualClock, SequentialIds } from '@uas/domain/testing';
import { JoseTokenSigner, ADMIN_AUDIENCE } from './jose-token-signer';
import { KeyRing, type SigningAlgorithm } from './key-ring';

const ISSUER = 'https://accounts.test';

/** The stored keys, unreadable while `down`, as the persistence adapters fail in an outage. */
class KeysWithOutage extends InMemorySigningKeyRepository {
  down = false;

  override async listUsable(now: Date): Promise<SigningKey[]> {
    if (this.down) throw new DatabaseUnavailableError();
    return super.listUsable(now);
  }
}

function setup(algorithm: SigningAlgorithm = 'ES256', keys = new KeysWithOutage(new InMemoryAuditTrail())) {
  const clock = new ManualClock(new Date());
  const keyRing = new KeyRing({
    keys,
    clock,
    ids: new SequentialIds(),
    algorithm,
    retireAfterSeconds: 3600,
    jwksMaxAgeSeconds: 300,
    clockToleranceSeconds: 5,
  });
  const signer = new JoseTokenSigner({
    keyRing,
    clock,
    issuer: ISSUER,
    userAudience: 'my-app',
    clockToleranceSeconds: 5,
  });
  return { clock, keys, keyRing, signer };
}

async function userToken(signer: JoseTokenSigner, clock: ManualClock, seconds = 900) {
  const now = clock.now();
  return signer.sign(
    'user_access',
    { sub: 'u1', sid: 's1', app: { role: 'x' } },
    now,
    new Date(now.getTime() + seconds * 1000),
  );
}

const refused = (promise: Promise<unknown>) => expect(promise).rejects.toBeInstanceOf(InvalidTokenError);

describe('JoseTokenSigner', () => {
  it.each(['ES256', 'EdDSA', 'RS256'] as const)(
    'signs with %s and a kid, and verifies its own tokens',
    async (algorithm) => {
      const { clock, keyRing, signer } = setup(algorithm);
      await keyRing.ensureSigningKey();
      const token = await userToken(signer, clock);
      const header = decodeProtectedHeader(token);
      expect(header.alg).toBe(algorithm);
      expect(header.kid).toEqual(expect.any(String));
      const verified = await signer.verify(token, ['user_access']);
      expect(verified.purpose).toBe('user_access');
      expect(verified.claims).toMatchObject({ sub: 'u1', sid: 's1', iss: ISSUER, aud: 'my-app', app: { role: 'x' } });
    },
  );

  it('tells purposes apart by audience: a user token is no admin token and no refresh token', async () => {
    const { clock, keyRing, signer } = setup();
    await keyRing.ensureSigningKey();
    const token = await userToken(signer, clock);
    await refused(signer.verify(token, ['refresh']));
    await refused(signer.verify(token, ['admin_access']));
    const now = clock.now();
    const admin = await signer.sign('admin_access', { sub: 'a' }, now, new Date(now.getTime() + 60_000));
    expect(decodeJwt(admin).aud).toBe(ADMIN_AUDIENCE);
    expect((await signer.verify(admin, ['admin_access', 'user_access'])).purpose).toBe('admin_access');
  });

  it('refuses an expired token, beyond the clock tolerance', async () => {
    const { clock, keyRing, signer } = setup();
    await keyRing.ensureSigningKey();
    const token = await userToken(signer, clock, 60);
    clock.advance(63);
    expect((await signer.verify(token, ['user_access'])).claims.sub).toBe('u1');
    clock.advance(3);
    await refused(signer.verify(token, ['user_access']));
  });

  it('refuses alg none, HS256 keyed with the public key, tampering, unknown kid and foreign keys, after verifying the genuine token', async () => {
    const { clock, keyRing, signer } = setup();
    await keyRing.ensureSigningKey();
    const token = await userToken(signer, clock);
    // Verified tokens are remembered: none of the variants below may pass as the one remembered.
    expect((await signer.verify(token, ['user_access'])).claims.sub).toBe('u1');
    await refused(signer.verify(token, ['admin_access', 'refresh']));
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const json = (part: string) => JSON.parse(new TextDecoder().decode(base64url.decode(part)));
    const encode = (value: object) => base64url.encode(JSON.stringify(value));

    await refused(signer.verify(`${encode({ ...json(header), alg: 'none' })}.${payload}.`, ['user_access']));
    const { keys } = await keyRing.jwks();
    const publicJwkText = new TextEncoder().encode(JSON.stringify(keys[0]));
    const hmac = await new SignJWT(json(payload))
      .setProtectedHeader({ alg: 'HS256', kid: json(header).kid })
      .sign(publicJwkText);
    await refused(signer.verify(hmac, ['user_access']));
    await refused(
      signer.verify(`${header}.${encode({ ...json(payload), sub: 'someone-else' })}.${signature}`, ['user_access']),
    );
    await refused(
      signer.verify(`${encode({ ...json(header), kid: 'unknown' })}.${payload}.${signature}`, ['user_access']),
    );

    const foreign = await generateKeyPair('ES256');
    const forged = await new SignJWT(json(payload))
      .setProtectedHeader({ alg: 'ES256', kid: json(header).kid })
      .sign(foreign.privateKey);
    await refused(signer.verify(forged, ['user_access']));
    await refused(signer.verify('not a token', ['user_access']));
  });

  it('refuses a token from another issuer', async () => {
    const { clock, keyRing } = setup();
    await keyRing.ensureSigningKey();
    const other = new JoseTokenSigner({
      keyRing,
      clock,
      issuer: 'https://evil.test',
      userAudience: 'my-app',
      clockToleranceSeconds: 5,
    });
    const ours = new JoseTokenSigner({
      keyRing,
      clock,
      issuer: ISSUER,
      userAudience: 'my-app',
      clockToleranceSeconds: 5,
    });
    await refused(ours.verify(await userToken(other, clock), ['user_access']));
  });

  it('after a rotation publishes both keys at once, signs with the old one until the activation, then with the new one; the old one verifies until it retires', async () => {
    const { clock, keyRing, signer } = setup();
    await keyRing.ensureSigningKey();
    const before = await userToken(signer, clock, 3000);
    const oldKid = decodeProtectedHeader(before).kid;
    const rotated = await keyRing.rotate();
    expect((await keyRing.jwks()).keys.map((key) => key.kid)).toEqual([rotated.kid, oldKid]);
    clock.advance(keyRing.activationLeadSeconds - 1);
    // Longer-lived than the ring allows for, so that only the key's retirement can refuse it.
    const last = await userToken(signer, clock, 7200);
    expect(decodeProtectedHeader(last).kid).toBe(oldKid);
    clock.advance(1);
    expect(decodeProtectedHeader(await userToken(signer, clock, 3000)).kid).toBe(rotated.kid);
    clock.advance(3599); // retires at the activation + 3600 s
    expect((await signer.verify(last, ['user_access'])).claims.sub).toBe('u1');
    clock.advance(2);
    await refused(signer.verify(last, ['user_access']));
  });

  it('an immediate rotation signs with the new key at once', async () => {
    const { clock, keyRing, signer } = setup();
    await keyRing.ensureSigningKey();
    const rotated = await keyRing.rotate('immediate');
    expect(decodeProtectedHeader(await userToken(signer, clock)).kid).toBe(rotated.kid);
  });

  describe('while the stored keys cannot be read (the database gone)', () => {
    it('keeps verifying with the keys read last, and keeps publishing them, past the reload period', async () => {
      const { clock, keys, keyRing, signer } = setup();
      await keyRing.ensureSigningKey();
      const token = await userToken(signer, clock, 3600);
      keys.down = true;
      clock.advance(61);
      expect((await signer.verify(token, ['user_access'])).claims.sub).toBe('u1');
      expect((await keyRing.jwks()).keys).toHaveLength(1);
      keys.down = false;
      expect((await signer.verify(token, ['user_access'])).claims.sub).toBe('u1');
    });

    it('answers as an outage, not as a bad token, when it holds no key for the token yet', async () => {
      const first = setup();
      await first.keyRing.ensureSigningKey();
      const token = await userToken(first.signer, first.clock);
      // Another instance on the same store: it has not read the keys yet, then one more is signed
      // with by the first instance before its next read.
      const second = setup('ES256', first.keys);
      first.keys.down = true;
      await expect(second.signer.verify(token, ['user_access'])).rejects.toBeInstanceOf(DatabaseUnavailableError);
      first.keys.down = false;
      expect((await second.signer.verify(token, ['user_access'])).claims.sub).toBe('u1');
      await first.keyRing.rotate('immediate');
      const newer = await userToken(first.signer, first.clock);
      first.keys.down = true;
      second.clock.advance(6);
      await expect(second.signer.verify(newer, ['user_access'])).rejects.toBeInstanceOf(DatabaseUnavailableError);
      second.clock.advance(1);
      await expect(second.signer.verify(newer, ['user_access'])).rejects.toBeInstanceOf(DatabaseUnavailableError);
      first.keys.down = false;
      expect((await second.signer.verify(newer, ['user_access'])).claims.sub).toBe('u1');
    });
  });

  it('the activation lead outlasts a JWKS cached for its max-age, plus the reload period and the clock tolerance', () => {
    expect(setup().keyRing.activationLeadSeconds).toBe(300 + 60 + 5);
  });

  it('publishes public keys only', async () => {
    const { keyRing } = setup('RS256');
    await keyRing.ensureSigningKey();
    const { keys } = await keyRing.jwks();
    expect(keys).toHaveLength(1);
    for (const key of keys) {
      expect(key).not.toHaveProperty('d');
      expect(key).not.toHaveProperty('p');
      expect(key).toMatchObject({ use: 'sig', alg: 'RS256', kid: expect.any(String) });
    }
  });
});
