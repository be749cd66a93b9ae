import { and, eq, getTableColumns, param, sql, type SQL } from 'drizzle-orm';
import type { WithSubquery } from 'drizzle-orm';
import type { AuditRecord, User, UserWrite } from '@uas/domain';
import { auditPendingRow } from '../shared/audit-rows';
import type { PostgresDb } from './postgres-db';
import { auditPending, users } from './postgres-schema';

/**
 * A user as read outside a transaction, with its row version: PostgreSQL's `xmin`, which every
 * change of the row renews, whatever wrote it (a login's `last_login` too, which leaves the
 * user's own `version` as it is).
 */
export interface VersionedUser {
  user: User;
  rowVersion: string;
}

export async function readVersionedUser(db: PostgresDb, id: string): Promise<VersionedUser | undefined> {
  const [row] = await db
    .select({ user: users, rowVersion: sql<string>`${users}.xmin::text` })
    .from(users)
    .where(eq(users.id, id));
  return row;
}

/**
 * Whether a write is the user's row and its event alone: such a write needs no transaction held
 * across round trips (see writeUserIfUnchanged); anything else it implies (ending sessions,
 * voiding tokens, mail, unlinking identities) is written under the row's lock.
 */
export const isRowAndEventOnly = ({ endSessions, voidTokens, mail, unlinkUnvouched }: UserWrite): boolean =>
  !endSessions && !voidTokens && !mail && !unlinkUnvouched?.length;

const { ord: _ord, ...eventColumns } = getTableColumns(auditPending);

/** The event's insert, of one row for each row of `gate`: none when the change it records did not happen. */
function insertEventFor(record: AuditRecord, gate: WithSubquery): SQL {
  const row = auditPendingRow(record);
  const keys = Object.keys(eventColumns) as (keyof typeof eventColumns)[];
  const names = sql.join(
    keys.map((key) => sql.identifier(eventColumns[key].name)),
    sql`, `,
  );
  // Typed casts: PostgreSQL cannot infer a select list's parameter types from the insert's columns.
  const values = sql.join(
    keys.map((key) => sql`${param(row[key], eventColumns[key])}::${sql.raw(eventColumns[key].getSQLType())}`),
    sql`, `,
  );
  return sql`insert into ${auditPending} (${names}) select ${values} from ${gate}`;
}

/**
 * Writes the user and its event in one statement, in its own implicit transaction, only if the
 * row is still the version `change` decided from; null when another write changed it meanwhile
 * (or it is gone), and nothing is written. The statement holds the row's lock only while it runs:
 * where a locked read, the write and the commit took four round trips holding a pool connection,
 * this takes one. The event commits with the change or not at all, as in the locked path.
 */
export async function writeUserIfUnchanged(
  db: PostgresDb,
  id: string,
  rowVersion: string,
  { user, audit }: UserWrite,
): Promise<User | null> {
  const { id: _, ...columns } = user;
  const updated = db.$with('updated', getTableColumns(users)).as(
    db
      .update(users)
      .set(columns)
      .where(and(eq(users.id, id), sql`${users}.xmin = ${rowVersion}::text::xid`))
      .returning()
      .getSQL(),
  );
  const ctes: WithSubquery[] = [updated];
  if (audit) ctes.push(db.$with('event', {}).as(insertEventFor(audit, updated)));
  const [stored] = await db
    .with(...ctes)
    .select()
    .from(updated);
  return stored ?? null;
}
