import { randomUUID } from 'node:crypto';
import type { AdminCredentials, AdminRole } from '@uas/domain';
import { hash } from '@node-rs/bcrypt';
import type { TestApplication } from './test-application';
import { withApplicationDatabase } from './token-forgery';

/**
 * An admin of `role`, written straight into the application's database: the service bootstraps
 * only one, and the scenarios need others beside it (one may not log another out; each role
 * meets the matrix).
 */
export async function insertAdmin(
  t: TestApplication,
  role: AdminRole,
  { email = `${role}.admin@example.com`, name = `${role} admin` }: { email?: string; name?: string } = {},
): Promise<AdminCredentials & { id: string; role: AdminRole }> {
  const credentials = { id: randomUUID(), email, password: `${role}-admin-password`, role };
  const passwordHash = await hash(credentials.password, { cost: 4 });
  const now = t.clock.now();
  await withApplicationDatabase(t, (database) =>
    database.repositories.admins.insert({
      id: credentials.id,
      name,
      email,
      passwordHash,
      role,
      created: now,
      updated: now,
      keyFileStamp: null,
    }),
  );
  return credentials;
}

/** A second owner beside the key file's admin. */
export const insertSecondAdmin = (t: TestApplication) =>
  insertAdmin(t, 'owner', { email: 'second.admin@example.com', name: 'Second Admin' });
