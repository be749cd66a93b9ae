import { and, eq } from 'drizzle-orm';
import type { PasswordRehashRepository, SubjectKind } from '@uas/domain';
import type { PostgresDb } from './postgres-db';
import { admins, users } from './postgres-schema';

const TABLES = { user: users, admin: admins } as const;

export class PostgresPasswordRehashRepository implements PasswordRehashRepository {
  constructor(private readonly db: PostgresDb) {}

  async replaceHash(kind: SubjectKind, id: string, verified: string, next: string): Promise<boolean> {
    const table = TABLES[kind];
    // One statement that checks and writes: a hash changed since the verify is left alone.
    const replaced = await this.db
      .update(table)
      .set({ passwordHash: next })
      .where(and(eq(table.id, id), eq(table.passwordHash, verified)))
      .returning({ id: table.id });
    return replaced.length > 0;
  }
}
