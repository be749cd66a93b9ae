import { and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { WithSubquery } from 'drizzle-orm';
import type { User, UserWrite } from '@uas/domain';
import { auditPendingRow } from '../shared/audit-rows';
import { placeholdersOf } from '../shared/placeholders';
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

/**
 * Whether a write is the user's row and its event alone: such a write needs no transaction held
 * across round trips (see SwiftUserWrites.write); anything else it implies (ending sessions,
 * voiding tokens, mail, unlinking identities) is written under the row's lock.
 */
export const isRowAndEventOnly = ({ endSessions, voidTokens, mail, unlinkUnvouched }: UserWrite): boolean =>
  !endSessions && !voidTokens && !mail && !unlinkUnvouched?.length;

const { id: _id, ...written } = getTableColumns(users);
const { ord: _ord, ...eventColumns } = getTableColumns(auditPending);
const EVENT_KEYS = Object.keys(eventColumns) as (keyof typeof eventColumns)[];
/** The event's placeholders are named apart from the user's (both have an `id`). */
const EVENT = 'event_';

/** The event's insert, of one row for each row of `gate`: none when the change it records did not happen. */
function insertEventFor(gate: WithSubquery): SQL {
  const values = placeholdersOf(eventColumns, EVENT);
  const names = sql.join(
    EVENT_KEYS.map((key) => sql.identifier(eventColumns[key].name)),
    sql`, `,
  );
  // Typed casts: PostgreSQL cannot infer a select list's parameter types from the insert's columns.
  const typed = sql.join(
    EVENT_KEYS.map((key) => sql`${values[key]}::${sql.raw(eventColumns[key].getSQLType())}`),
    sql`, `,
  );
  return sql`insert into ${auditPending} (${names}) select ${typed} from ${gate}`;
}

/** The user's row written only while its version is the `rowVersion` given, with or without its event. */
function writeIfUnchanged(db: PostgresDb, withEvent: boolean) {
  const updated = db.$with('updated', getTableColumns(users)).as(
    db
      .update(users)
      .set(placeholdersOf(written))
      .where(and(eq(users.id, sql.placeholder('id')), sql`${users}.xmin = ${sql.placeholder('rowVersion')}::text::xid`))
      .returning()
      .getSQL(),
  );
  const ctes: WithSubquery[] = withEvent ? [updated, db.$with('event', {}).as(insertEventFor(updated))] : [updated];
  return db
    .with(...ctes)
    .select()
    .from(updated);
}

/**
 * A user read with its row version, and written in one statement only if that version is
 * unchanged (see write). Prepared once: Drizzle built these statements at every PATCH, an eighth
 * of the service's time under PATCH load on PostgreSQL (issue 29).
 */
export class SwiftUserWrites {
  private readonly versioned;
  private readonly rowOnly;
  private readonly rowAndEvent;

  constructor(db: PostgresDb) {
    this.versioned = db
      .select({ user: users, rowVersion: sql<string>`${users}.xmin::text` })
      .from(users)
      .where(eq(users.id, sql.placeholder('id')))
      .prepare('user_versioned');
    this.rowOnly = writeIfUnchanged(db, false).prepare('user_write_if_unchanged');
    this.rowAndEvent = writeIfUnchanged(db, true).prepare('user_and_event_write_if_unchanged');
  }

  async read(id: string): Promise<VersionedUser | undefined> {
    const [row] = await this.versioned.execute({ id });
    return row;
  }

  /**
   * Writes the user and its event in one statement, in its own implicit transaction, only if the
   * row is still the version `change` decided from; null when another write changed it meanwhile
   * (or it is gone), and nothing is written. The statement holds the row's lock only while it
   * runs: where a locked read, the write and the commit took four round trips holding a pool
   * connection, this takes one. The event commits with the change or not at all, as in the
   * locked path.
   */
  async write(id: string, rowVersion: string, { user, audit }: UserWrite): Promise<User | null> {
    const values: Record<string, unknown> = { ...user, id, rowVersion };
    if (!audit) return (await this.rowOnly.execute(values))[0] ?? null;
    const row = auditPendingRow(audit);
    for (const key of EVENT_KEYS) values[EVENT + key] = row[key];
    return (await this.rowAndEvent.execute(values))[0] ?? null;
  }
}
