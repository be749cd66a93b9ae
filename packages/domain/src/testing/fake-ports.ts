import type { Clock } from '../shared/clock.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { PasswordHasher } from '../shared/password-hasher.ts';

/** A clock that moves only when told to, so expiry and throttling tests need no sleeping. */
export class ManualClock implements Clock {
  constructor(private current = new Date('2026-01-01T00:00:00.000Z')) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(seconds: number): void {
    this.current = new Date(this.current.getTime() + seconds * 1000);
  }
}

/** Deterministic v4-shaped UUIDs: ...-4000-8000-000000000001, ...02, and so on. */
export class SequentialIds implements IdGenerator {
  private counter = 0;
  next(): string {
    this.counter += 1;
    return `00000000-0000-4000-8000-${this.counter.toString(16).padStart(12, '0')}`;
  }
}

/**
 * A reversible stand-in for bcrypt in domain unit tests; the real hasher is tested in the server.
 * Its own hashes are `plain:<password>`; `legacy:<password>` plays a foreign format it verifies
 * and wants rehashed, and `legacy-costly:…` one whose cost is over the ceiling.
 */
export class PlainTextHasher implements PasswordHasher {
  async hash(password: string): Promise<string> {
    return `plain:${password}`;
  }
  async verify(password: string, hash: string): Promise<boolean> {
    return hash === `plain:${password}` || hash === `legacy:${password}`;
  }
  importProblem(hash: string): string | null {
    if (hash.startsWith('legacy-costly:')) return 'has a cost over the ceiling';
    return /^(plain|legacy):/.test(hash) ? null : 'is not a supported hash';
  }
  needsRehash(hash: string): boolean {
    return !hash.startsWith('plain:');
  }
}
