import { and, eq } from 'drizzle-orm';
import type { PasswordRehashRepository, SubjectKind } from '@uas/domain';
import type { SqliteDb } from './sqlite-db';
import { admins, users } from './sqlite-schema';

const TABLES = { user: users, admin: admins } as const;

export class SqlitePasswordRehashRepository implements PasswordRehashRepository {
  constructor(private readonly db: SqliteDb) {}

  async replaceHash(kind: SubjectKind, id: string, verified: string, next: string): Promise<boolean> {
    const table = TABLES[kind];
    // One statement that checks and writes: a hash changed since the verify is left alone.
    const replaced = this.db
      .update(table)
      .set({ passwordHash: next })
      .where(and(eq(table.id, id), eq(table.passwordHash, verified)))
      .run();
    return replaced.changes > 0;
  }
}
