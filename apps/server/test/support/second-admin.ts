import { randomUUID } from 'node:crypto';
import type { AdminCredentials } from '@uas/domain';
import { hash } from '@node-rs/bcrypt';
import type { TestApplication } from './test-application';
import { withApplicationDatabase } from './token-forgery';

/**
 * A second admin, written straight into the application's database: the service bootstraps only
 * one, but the contract says what happens between two (one may not log the other out).
 */
export async function insertSecondAdmin(t: TestApplication): Promise<AdminCredentials & { id: string }> {
  const credentials = { id: randomUUID(), email: 'second.admin@example.com', password: 'second-admin-password' };
  const passwordHash = await hash(credentials.password, { cost: 4 });
  const now = t.clock.now();
  await withApplicationDatabase(t, (database) =>
    database.repositories.admins.insert({
      id: credentials.id,
      name: 'Second Admin',
      email: credentials.email,
      passwordHash,
      role: 'owner',
      created: now,
      updated: now,
      keyFileStamp: null,
    }),
  );
  return credentials;
}
