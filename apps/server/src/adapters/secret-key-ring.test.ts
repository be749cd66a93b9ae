import { createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ActionTokenService, InvalidActionTokenError, SECRET_PURPOSES } from '@uas/domain';
import {
  inMemoryRepositories,
  ManualClock,
  sampleMail,
  sampleUser,
  SequentialIds,
  TEST_TOKEN_LIFETIMES,
} from '@uas/domain/testing';
import { SecretKeyRing } from './secret-key-ring';

/** The longest of the test lifetimes (an invitation's week): how long a retired secret is hashed under. */
const LIVE_AFTER_RETIRING = Math.max(...Object.values(TEST_TOKEN_LIFETIMES));

const MFA_KEY = randomBytes(32);

function ring(repositories = inMemoryRepositories(), clock = new ManualClock(), wrapKeys = [MFA_KEY]) {
  return {
    keyRing: new SecretKeyRing({
      secrets: repositories.secrets,
      clock,
      ids: new SequentialIds(),
      liveTokensAfterRetiringSeconds: LIVE_AFTER_RETIRING,
      wrapKeys: async () => wrapKeys,
    }),
    repositories,
    clock,
  };
}

describe('SecretKeyRing', () => {
  it('ensureSecrets() creates one secret per purpose, once, and audits it', async () => {
    const { keyRing, repositories } = ring();
    await keyRing.ensureSecrets();
    await keyRing.ensureSecrets();
    for (const purpose of SECRET_PURPOSES) expect(await repositories.secrets.list(purpose)).toHaveLength(1);
    expect((await repositories.audit.list({ page: 1, size: 10 })).events.map((event) => event.action)).toEqual(
      SECRET_PURPOSES.map(() => 'secret.rotated'),
    );
  });

  it('stores the factor-secret material wrapped under the MFA key, so the database alone opens nothing it sealed', async () => {
    const { keyRing, repositories } = ring();
    await keyRing.ensureSecrets();
    const sealed = await keyRing.seal('factor-secret', 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', 'factor-1');
    const [stored] = await repositories.secrets.list('factor-secret');
    const storedKey = Buffer.from(stored!.material.split('.')[1] ?? '', 'base64url');
    expect(storedKey.length).toBeGreaterThan(32); // nonce, wrapped key and tag: not a usable key
    expect(await keyRing.open('factor-secret', sealed, 'factor-1')).toBe('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
    const { keyRing: withAnotherKey } = ring(repositories, new ManualClock(), [randomBytes(32)]);
    await expect(withAnotherKey.open('factor-secret', sealed, 'factor-1')).rejects.toThrow(/MFA key/);
  });

  it('at start, wraps again under the first MFA key what an older one wrapped, which then no longer needs the old key', async () => {
    const repositories = inMemoryRepositories();
    const old = randomBytes(32);
    const { keyRing: before } = ring(repositories, new ManualClock(), [old]);
    await before.ensureSecrets();
    const sealed = await before.seal('factor-secret', 'the secret', 'factor-1');
    const [wrappedBefore] = await repositories.secrets.list('factor-secret');
    const newer = randomBytes(32);
    const { keyRing: during } = ring(repositories, new ManualClock(), [newer, old]);
    await during.ensureSecrets();
    const [wrappedAfter] = await repositories.secrets.list('factor-secret');
    expect(wrappedAfter!.id).toBe(wrappedBefore!.id);
    expect(wrappedAfter!.material).not.toBe(wrappedBefore!.material);
    const { keyRing: after } = ring(repositories, new ManualClock(), [newer]);
    expect(await after.open('factor-secret', sealed, 'factor-1')).toBe('the secret');
  });

  it('seals so that the plaintext does not show, and opens only with the same purpose and context', async () => {
    const { keyRing } = ring();
    await keyRing.ensureSecrets();
    const sealed = await keyRing.seal('mail-body', 'https://example.com/?token=s3cret', 'message-1');
    expect(Buffer.from(sealed.ciphertext, 'base64url').toString('latin1')).not.toContain('s3cret');
    expect(await keyRing.open('mail-body', sealed, 'message-1')).toBe('https://example.com/?token=s3cret');
    await expect(keyRing.open('mail-body', sealed, 'message-2')).rejects.toThrow();
    const bytes = Buffer.from(sealed.ciphertext, 'base64url');
    bytes[20] = (bytes[20] ?? 0) ^ 1;
    await expect(
      keyRing.open('mail-body', { ...sealed, ciphertext: bytes.toString('base64url') }, 'message-1'),
    ).rejects.toThrow();
    const again = await keyRing.seal('mail-body', 'https://example.com/?token=s3cret', 'message-1');
    expect(again.ciphertext).not.toBe(sealed.ciphertext); // a fresh nonce every time
  });

  it('after a rotation, seals with the new secret and still opens what the old one sealed', async () => {
    const { keyRing } = ring();
    await keyRing.ensureSecrets();
    const before = await keyRing.seal('mail-body', 'old text', 'm');
    const secret = await keyRing.rotate('mail-body');
    const after = await keyRing.seal('mail-body', 'new text', 'm');
    expect(after.keyId).toBe(secret.id);
    expect(before.keyId).not.toBe(secret.id);
    expect(await keyRing.open('mail-body', before, 'm')).toBe('old text');
    expect(await keyRing.open('mail-body', after, 'm')).toBe('new text');
  });

  it('opens what another instance sealed with a secret it rotated in after this one cached the ring', async () => {
    const repositories = inMemoryRepositories();
    const { keyRing: first } = ring(repositories);
    const { keyRing: second } = ring(repositories);
    await first.ensureSecrets();
    await second.seal('mail-body', 'warm the cache', 'm');
    await first.rotate('mail-body');
    const sealed = await first.seal('mail-body', 'from the first', 'm');
    expect(await second.open('mail-body', sealed, 'm')).toBe('from the first');
  });

  it('makes tokens of 256 random bits, URL-safe, each new', () => {
    const { keyRing } = ring();
    const tokens = new Set(Array.from({ length: 1000 }, () => keyRing.generate()));
    expect(tokens.size).toBe(1000);
    for (const token of tokens) expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('digests a token with HMAC-SHA256 under the current token-hmac secret, and finds it under every one after a rotation', async () => {
    const { keyRing, repositories } = ring();
    await keyRing.ensureSecrets();
    const token = keyRing.generate();
    const [secret] = await repositories.secrets.list('token-hmac');
    const expected = createHmac('sha256', Buffer.from(secret!.material, 'base64url')).update(token).digest('base64url');
    expect(await keyRing.digest(token)).toBe(expected);
    await keyRing.rotate('token-hmac');
    const digests = await keyRing.digests(token);
    expect(digests).toHaveLength(2);
    expect(digests[0]).toBe(await keyRing.digest(token));
    expect(digests[1]).toBe(expected);
  });

  it('macs a recovery code under the current factor-secret key, unknown to the database alone, and under every key held after a rotation', async () => {
    const { keyRing, repositories } = ring();
    await keyRing.ensureSecrets();
    const mac = await keyRing.mac('factor-secret', 'abcdefghijkl');
    expect(mac).not.toBe(createHash('sha256').update('abcdefghijkl').digest('base64url'));
    const [stored] = await repositories.secrets.list('factor-secret');
    // The stored material is wrapped: keyed with it as it stands, the digest does not match.
    expect(mac).not.toBe(createHmac('sha256', stored!.material).update('abcdefghijkl').digest('base64url'));
    await keyRing.rotate('factor-secret');
    const macs = await keyRing.macs('factor-secret', 'abcdefghijkl');
    expect(macs).toEqual([await keyRing.mac('factor-secret', 'abcdefghijkl'), mac]);
    expect(macs[0]).not.toBe(mac);
  });

  it('reloadedDigests() finds a token another instance made under a secret it rotated in after this one cached the ring', async () => {
    const repositories = inMemoryRepositories();
    const { keyRing: first } = ring(repositories);
    const { keyRing: second } = ring(repositories);
    await first.ensureSecrets();
    await second.digest('warm-the-cache');
    await first.rotate('token-hmac');
    const token = first.generate();
    expect(await second.digests(token)).not.toContain(await first.digest(token));
    expect(await second.reloadedDigests(token)).toContain(await first.digest(token));
  });

  it('digests() reads the stored secrets once per minute at most, not once per token presented', async () => {
    const repositories = inMemoryRepositories();
    let reads = 0;
    const list = repositories.secrets.list.bind(repositories.secrets);
    repositories.secrets.list = async (purpose) => {
      reads += 1;
      return list(purpose);
    };
    const { keyRing, clock } = ring(repositories);
    await keyRing.ensureSecrets();
    const before = reads;
    for (let n = 0; n < 100; n++) await keyRing.digests(keyRing.generate());
    expect(reads - before).toBe(0);
    clock.advance(61);
    await keyRing.digests(keyRing.generate());
    expect(reads - before).toBe(1);
  });

  it('stops hashing under a token-hmac secret once it has been retired longer than the longest token lifetime', async () => {
    const { keyRing, repositories, clock } = ring();
    await keyRing.ensureSecrets();
    const token = keyRing.generate();
    const underFirst = await keyRing.digest(token);
    await keyRing.rotate('token-hmac');
    clock.advance(LIVE_AFTER_RETIRING - 1);
    await keyRing.rotate('token-hmac');
    expect(await keyRing.digests(token)).toHaveLength(3);
    expect(await keyRing.digests(token)).toContain(underFirst);
    clock.advance(2);
    const digests = await keyRing.reloadedDigests(token);
    expect(digests).toHaveLength(2);
    expect(digests).not.toContain(underFirst);
    expect(await repositories.secrets.list('token-hmac')).toHaveLength(3); // kept, only not hashed under
  });

  it('ActionTokenService.use() on one instance accepts a token the other made just after rotating, once', async () => {
    const repositories = inMemoryRepositories();
    const clock = new ManualClock();
    const services = [ring(repositories, clock).keyRing, ring(repositories, clock).keyRing].map((keys) => ({
      keys,
      tokens: new ActionTokenService({
        tokens: repositories.tokens,
        keys,
        clock,
        ids: new SequentialIds(),
        lifetimes: TEST_TOKEN_LIFETIMES,
      }),
    }));
    const [first, second] = services as [(typeof services)[0], (typeof services)[0]];
    await first.keys.ensureSecrets();
    await second.keys.digest('warm-the-cache');
    await first.keys.rotate('token-hmac');
    const user = sampleUser();
    await repositories.users.insert(user);
    let carried = '';
    await first.tokens.issue('recovery', { userId: user.id }, async (token) => {
      carried = token;
      return sampleMail(1);
    });
    expect((await second.tokens.use('recovery', carried)).userId).toBe(user.id);
    await expect(second.tokens.use('recovery', carried)).rejects.toThrow(InvalidActionTokenError);
  });
});
