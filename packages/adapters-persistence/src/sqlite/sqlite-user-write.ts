import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { User, UserWrite } from '@uas/domain';
import { unvouchedIdentityOfUser } from '../shared/identity-conditions';
import { voidTokensOf } from './sqlite-action-token-statements';
import { appendAuditEvent } from './sqlite-audit-trail';
import type { SqliteDb } from './sqlite-db';
import { insertMail } from './sqlite-mail-queue';
import { placeholdersOf } from '../shared/placeholders';
import { preparedPerConnection } from './prepared-on-use';
import { externalIdentities, users } from './sqlite-schema';
import { endSubjectSessions } from './sqlite-subject-sessions';

const { id: _key, ...written } = getTableColumns(users);
/**
 * The columns no index of `users` holds. SQLite rewrites an index's entry for every column its
 * SET names, even to the value it had: a PATCH of a name that set every column also rewrote the
 * email's and the creation order's index entries, two more pages written at each commit. The
 * triggers of those two columns (the email's trigram index, the list's generation) act only when
 * a value changes, so leaving them out of an unchanging write skips nothing; a trigger on them
 * that acted on every write would have to go into this rule.
 */
const { email: _email, created: _created, ...unindexed } = written;

/** The write of the user by id that sets `columns`, returning the whole user. */
const writeOf = (db: SqliteDb, columns: Partial<typeof written>) =>
  db
    .update(users)
    .set(placeholdersOf(columns))
    .where(eq(users.id, sql.placeholder('id')))
    .returning()
    .prepare();

/**
 * A user read and written by id, in the callers' transactions: prepared once per connection, as
 * every PATCH, login and verification runs them (building them at each call was a fifth of a
 * PATCH's time on SQLite).
 */
const statements = preparedPerConnection((db) => ({
  current: db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare(),
  write: writeOf(db, written),
  writeUnindexed: writeOf(db, unindexed),
}));

/** Whether `user` has the email and the creation time of `current`: its write may leave them out. */
const keepsIndexed = (current: User, user: User): boolean =>
  current.email === user.email && current.created.getTime() === user.created.getTime();

/** The user as it is, inside the caller's transaction. */
export function currentUser(tx: SqliteDb, id: string): User | null {
  return statements(tx).current.get({ id }) ?? null;
}

/**
 * Writes what a change of `current` decided, inside the caller's transaction (which holds the
 * write lock): the user, and whatever the change implies. Also what a token's redeem writes.
 */
export function writeUser(
  tx: SqliteDb,
  current: User,
  { user, endSessions, audit, voidTokens, mail, unlinkUnvouched }: UserWrite,
): User | null {
  const { id } = current;
  const { write, writeUnindexed } = statements(tx);
  const stored = (keepsIndexed(current, user) ? writeUnindexed : write).get({ ...user, id }) ?? null;
  for (const unlinked of unlinkUnvouched ?? []) {
    const removed = tx
      .delete(externalIdentities)
      .where(unvouchedIdentityOfUser(externalIdentities, unlinked.identityId, id))
      .returning({ id: externalIdentities.id })
      .all();
    if (removed.length > 0) appendAuditEvent(tx, unlinked.audit);
  }
  if (endSessions) endSubjectSessions(tx, 'user', id, user.updated, endSessions.keepSessionId);
  if (voidTokens) voidTokensOf(tx, id, user.updated).run();
  if (mail) insertMail(tx, mail);
  if (audit) appendAuditEvent(tx, audit);
  return stored;
}
