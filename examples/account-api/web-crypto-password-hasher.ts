import type { PasswordHasher } from '@uas/domain';
import { decode, encode } from './base64url.ts';

// workerd caps PBKDF2 at 100 000 iterations; a server would use bcrypt or argon2 instead.
const ITERATIONS = 100_000;

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, ['deriveBits']);
  return new Uint8Array(
    await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, 256),
  );
}

/** PBKDF2-SHA-256 through Web Crypto, so it runs wherever `crypto.subtle` does. */
export class WebCryptoPasswordHasher implements PasswordHasher {
  async hash(password: string): Promise<string> {
    const salt = crypto.getRandomValues(new Uint8Array(16));
    return `pbkdf2-sha256$${ITERATIONS}$${encode(salt)}$${encode(await derive(password, salt, ITERATIONS))}`;
  }

  async verify(password: string, hash: string): Promise<boolean> {
    const [scheme, iterations, salt, expected] = hash.split('$');
    if (scheme !== 'pbkdf2-sha256' || !iterations || !salt || !expected) return false;
    const actual = await derive(password, decode(salt), Number(iterations));
    const wanted = decode(expected);
    // Compare every byte whatever the first difference, so the time taken tells nothing.
    let difference = actual.length ^ wanted.length;
    for (let i = 0; i < actual.length; i++) difference |= actual[i]! ^ (wanted[i] ?? 0);
    return difference === 0;
  }

  /** This example imports no users: only its own hashes are storable. */
  importProblem(hash: string): string | null {
    return hash.startsWith('pbkdf2-sha256$') ? null : 'is not a PBKDF2 hash of this example';
  }

  needsRehash(): boolean {
    return false;
  }
}
