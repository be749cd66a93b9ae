import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inMemoryRepositories, ManualClock, SequentialIds } from '@uas/domain/testing';
import { SecretKeyRing } from './secret-key-ring';

function ring(repositories = inMemoryRepositories(), clock = new ManualClock()) {
  return {
    keyRing: new SecretKeyRing({ secrets: repositories.secrets, clock, ids: new SequentialIds() }),
    repositories,
    clock,
  };
}

describe('SecretKeyRing', () => {
  it('ensureSecrets() creates one secret per purpose, once, and audits it', async () => {
    const { keyRing, repositories } = ring();
    await keyRing.ensureSecrets();
    await keyRing.ensureSecrets();
    expect(await repositories.secrets.list('mail-body')).toHaveLength(1);
    expect(await repositories.secrets.list('token-hmac')).toHaveLength(1);
    expect((await repositories.audit.list({ page: 1, size: 10 })).events.map((event) => event.action)).toEqual([
      'secret.rotated',
      'secret.rotated',
    ]);
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

  it('finds a token another instance made under a secret it rotated in after this one cached the ring', async () => {
    const repositories = inMemoryRepositories();
    const { keyRing: first } = ring(repositories);
    const { keyRing: second } = ring(repositories);
    await first.ensureSecrets();
    await second.digest('warm-the-cache');
    await first.rotate('token-hmac');
    const token = first.generate();
    expect(await second.digests(token)).toContain(await first.digest(token));
  });
});
