import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BcryptPasswordHasher } from './bcrypt-password-hasher';
import type { HashCeilings } from './password-hashes/hash-format';

interface Vector {
  format: string;
  tool: string;
  password: string;
  hash: string;
}

/** Made by each format's reference implementation: test/fixtures/generate-password-hash-vectors.sh. */
const vectors: Vector[] = JSON.parse(
  readFileSync(new URL('../../test/fixtures/password-hash-vectors.json', import.meta.url), 'utf8'),
);
const ceilings: HashCeilings = { bcryptCost: 14, memoryMiB: 256, argon2Passes: 10, pbkdf2Iterations: 1_000_000 };
const hasher = new BcryptPasswordHasher(4, ceilings);

describe('BcryptPasswordHasher with foreign hashes', () => {
  it('has a vector for every format the import accepts', () => {
    expect(vectors.map((vector) => vector.format).sort()).toEqual([
      'argon2i',
      'argon2id',
      'bcrypt-2a',
      'bcrypt-2b',
      'bcrypt-2y',
      'firebase-scrypt',
      'pbkdf2-sha256',
      'pbkdf2-sha256-phc',
      'scrypt',
    ]);
  });

  describe.each(vectors)('$format (made by $tool)', ({ password, hash }) => {
    it('accepts the hash for import', () => {
      expect(hasher.importProblem(hash)).toBeNull();
    });
    it('verifies the original password', async () => {
      expect(await hasher.verify(password, hash)).toBe(true);
    });
    it('refuses a wrong password, and the right one with a changed last character', async () => {
      expect(await hasher.verify(`${password}x`, hash)).toBe(false);
      expect(await hasher.verify(password.slice(0, -1), hash)).toBe(false);
    });
    it('is due for a rehash under the default bcrypt cost', () => {
      expect(new BcryptPasswordHasher(10, ceilings).needsRehash(hash)).toBe(true);
    });
  });

  it('does not rehash its own hashes, but does those of another cost', async () => {
    const own = await hasher.hash('correct horse battery');
    expect(own).toMatch(/^\$2b\$04\$/);
    expect(hasher.needsRehash(own)).toBe(false);
    expect(new BcryptPasswordHasher(5, ceilings).needsRehash(own)).toBe(true);
  });

  it.each([
    [
      'bcrypt cost 15',
      '$2b$15$osxxEtjivqJ3YFpV2ZceaOMwJ7GdfDvcobvjGN2TTZQt5yDDJsNPi',
      /bcrypt cost over the ceiling of 14/,
    ],
    [
      'argon2 with 512 MiB',
      '$argon2id$v=19$m=524288,t=2,p=1$c29tZXNhbHQxNmJ5dGVz$o+dcU7DlJjV+9UOCJRD5/FVNaR5lCS9eN55CtYMJhfs',
      /256 MiB/,
    ],
    [
      'argon2 with 11 passes',
      '$argon2id$v=19$m=4096,t=11,p=1$c29tZXNhbHQxNmJ5dGVz$o+dcU7DlJjV+9UOCJRD5/FVNaR5lCS9eN55CtYMJhfs',
      /passes/,
    ],
    [
      'scrypt with 2^20 × 8 blocks (1 GiB)',
      '$scrypt$ln=20,r=8,p=1$am1NScmZc651TgkhBADgvA$fSPW0EKN1yYBKPzeDhgKoJL4OpnspCCs6H5RBfPqCjI',
      /256 MiB/,
    ],
    [
      'scrypt with p=4 over the memory',
      '$scrypt$ln=18,r=8,p=4$am1NScmZc651TgkhBADgvA$fSPW0EKN1yYBKPzeDhgKoJL4OpnspCCs6H5RBfPqCjI',
      /256 MiB/,
    ],
    [
      'Firebase scrypt with ln=31',
      '$firescrypt$ln=31,r=8,p=1$c2FsdHNhbHRzYWx0$aGFzaA==$Bw==$a2V5a2V5',
      /ceiling|well-formed/,
    ],
    [
      'PBKDF2 with 2,000,000 iterations',
      '$pbkdf2-sha256$i=2000000,l=32$c2FsdHlzYWx0eXNhbHQxNg$FkATV524m/YT2xbwGuU9d2uksOaT8KAi/TAvd1H3PNQ',
      /PBKDF2 iterations/,
    ],
  ])('refuses at import a hash over the ceiling: %s', (_, hash, reason) => {
    expect(hasher.importProblem(hash)).toMatch(reason);
  });

  it.each([
    ['plain text', 'correct horse battery'],
    ['an md5 crypt string', '$1$saltsalt$qjXMvbEw8oaL.CzflDugX/'],
    ['argon2d', '$argon2d$v=19$m=4096,t=2,p=1$c29tZXNhbHQxNmJ5dGVz$o+dcU7DlJjV+9UOCJRD5/FVNaR5lCS9eN55CtYMJhfs'],
    [
      'argon2 without a memory cost',
      '$argon2id$v=19$t=2,p=1$c29tZXNhbHQxNmJ5dGVz$o+dcU7DlJjV+9UOCJRD5/FVNaR5lCS9eN55CtYMJhfs',
    ],
    ['a truncated bcrypt hash', '$2b$04$osxxEtjivqJ3YFpV2Zcea'],
    ['bcrypt $2x$', '$2x$04$osxxEtjivqJ3YFpV2ZceaOMwJ7GdfDvcobvjGN2TTZQt5yDDJsNPi'],
    [
      'scrypt with a salt that is not base64',
      '$scrypt$ln=10,r=8,p=1$am1N*cmZc651$fSPW0EKN1yYBKPzeDhgKoJL4OpnspCCs6H5RBfPqCjI',
    ],
    ['Firebase scrypt without its signer key', '$firescrypt$ln=14,r=8,p=1$42xEC+ixf3L2lw==$lSrfV15cpx95$Bw=='],
    [
      'PBKDF2 whose l does not match the hash',
      '$pbkdf2-sha256$i=2000,l=16$c2FsdHlzYWx0eXNhbHQxNg$FkATV524m/YT2xbwGuU9d2uksOaT8KAi/TAvd1H3PNQ',
    ],
  ])('refuses at import, and never verifies, %s', async (_, hash) => {
    expect(hasher.importProblem(hash)).toEqual(expect.any(String));
    expect(await hasher.verify('correct horse battery', hash)).toBe(false);
  });

  it('still verifies a stored hash above the import ceiling: its own bcrypt at a higher cost', async () => {
    const stored = await new BcryptPasswordHasher(5, { ...ceilings, bcryptCost: 4 }).hash('correct horse battery');
    expect(new BcryptPasswordHasher(4, { ...ceilings, bcryptCost: 4 }).importProblem(stored)).toMatch(/ceiling/);
    expect(
      await new BcryptPasswordHasher(4, { ...ceilings, bcryptCost: 4 }).verify('correct horse battery', stored),
    ).toBe(true);
  });
});
