import { randomUUID } from 'node:crypto';
import { hash } from '@node-rs/bcrypt';
import { openDatabase, type DatabaseLocation, type DatabaseOptions } from '@uas/adapters-persistence';
import { NO_BAN, type User } from '@uas/domain';
import { PASSWORD, type SeededUser } from './api';

/** Users per insertMany call: one transaction each, large enough that commits cost little. */
const BATCH = 10_000;
/** Seeded users the scenarios pick from (GET, PATCH, logins); keeping a million in memory would skew the figures of nothing. */
const SAMPLE = 10_000;
/** The server's default bcrypt cost, so logging in as a seeded user costs what it would in production. */
const BCRYPT_COST = 10;
/** Seeded emails spread over this many domains: searching one domain matches 1 % of the users. */
export const DOMAINS = 100;

/** The email of the n-th seeded user: `user0001234@org34.example`. */
const seededEmail = (n: number) =>
  `user${String(n).padStart(7, '0')}@org${String(n % DOMAINS).padStart(2, '0')}.example`;

/**
 * Writes `count` users through the user repository's bulk path (`insertMany`), as an import
 * would: records the domain would have made, all with one real bcrypt hash of PASSWORD, created
 * one millisecond apart. Migrates the empty database first. Returns a sample of the users.
 */
export async function seedUsers(
  location: DatabaseLocation,
  options: DatabaseOptions,
  count: number,
): Promise<SeededUser[]> {
  const database = await openDatabase(location, options);
  try {
    await database.migrate();
    const passwordHash = await hash(PASSWORD, { cost: BCRYPT_COST });
    const start = Date.UTC(2025, 0, 1);
    const sample: SeededUser[] = [];
    const every = Math.max(1, Math.floor(count / SAMPLE));
    for (let first = 0; first < count; first += BATCH) {
      const batch: User[] = [];
      for (let n = first; n < Math.min(count, first + BATCH); n++) {
        const created = new Date(start + n);
        const user: User = {
          id: randomUUID(),
          name: `User ${n}`,
          email: seededEmail(n),
          passwordHash,
          metadata: { theme: n % 2 ? 'dark' : 'light', locale: 'en' },
          app: { plan: 'free' },
          active: 1,
          created,
          updated: created,
          version: 1,
          lastLogin: null,
          // Verified, as users an admin creates or imports are: the benchmark logs them in.
          emailVerified: created,
          ...NO_BAN,
        };
        batch.push(user);
        if (n % every === 0) sample.push({ id: user.id, email: user.email });
      }
      await database.repositories.users.insertMany(batch);
    }
    return sample;
  } finally {
    await database.close();
  }
}
