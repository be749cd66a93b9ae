import { describe, expect, it } from '../testing/test-api.ts';
import type { PasswordHasher } from '../shared/password-hasher.ts';
import { passwordMatches } from './password-match.ts';

/** Compares only the first 72 bytes, as bcrypt does. */
class FirstBytesHasher implements PasswordHasher {
  async hash(password: string): Promise<string> {
    return `first72:${this.prefix(password)}`;
  }
  async verify(password: string, hash: string): Promise<boolean> {
    return hash === `first72:${this.prefix(password)}`;
  }
  importProblem(): string | null {
    return null;
  }
  needsRehash(): boolean {
    return false;
  }
  private prefix(password: string): string {
    return new TextDecoder().decode(new TextEncoder().encode(password).slice(0, 72));
  }
}

describe('passwordMatches', () => {
  const hasher = new FirstBytesHasher();
  const stored = 'Q'.repeat(72);

  it('accepts the password behind the hash', async () => {
    expect(await passwordMatches(hasher, stored, await hasher.hash(stored))).toBe(true);
  });

  it('refuses a longer password whose first 72 bytes match, which bcrypt alone would accept', async () => {
    const hash = await hasher.hash(stored);
    expect(await hasher.verify(`${stored}EXTRA`, hash)).toBe(true);
    expect(await passwordMatches(hasher, `${stored}EXTRA`, hash)).toBe(false);
  });

  it('refuses a wrong password', async () => {
    expect(await passwordMatches(hasher, 'Q'.repeat(71), await hasher.hash(stored))).toBe(false);
  });
});
