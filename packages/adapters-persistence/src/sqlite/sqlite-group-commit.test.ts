import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import {
  applyUserPatch,
  auditRecord,
  type AuditChanges,
  EmailTakenError,
  PreconditionFailedError,
  SYSTEM,
  verifyAuditChain,
  type User,
} from '@uas/domain';
import { firstTokenOf, sampleSession, sampleUser } from '@uas/domain/testing';
import { openDatabase } from '../database';
import type { Database } from '../shared/database-handle';
import { createTemporarySqliteFile, type TemporarySqliteFile } from '../testing/sqlite-test-database';
import { appendAuditEvent, groupAudit } from './sqlite-audit-trail';
import { connectSqlite } from './sqlite-database';
import { SqliteGroupCommit } from './sqlite-group-commit';
import type { SqliteConnection } from './sqlite-driver';

// Writes sent together (updates, sessions opened) share one transaction and one commit
// (SqliteGroupCommit): each must still stand or fall alone.
describe('SQLite writes sent together', () => {
  let file: TemporarySqliteFile;
  let database: Database;
  beforeEach(async () => {
    file = createTemporarySqliteFile();
    database = await openDatabase({ dialect: 'sqlite', url: `sqlite:${file.path}`, path: file.path });
    await database.migrate();
  });
  afterEach(async () => {
    await database.close();
    file.remove();
  });

  const rename = (name: string) => (current: User) => ({ user: applyUserPatch(current, { name }, current.updated) });

  it('undo only the one that fails, which answers its own error, and store the others', async () => {
    const people = Array.from({ length: 6 }, () => sampleUser());
    for (const user of people) await database.repositories.users.insert(user);
    const { users } = database.repositories;
    const outcomes = await Promise.allSettled([
      users.update(people[0]!.id, rename('First')),
      users.update(people[1]!.id, () => {
        throw new PreconditionFailedError();
      }),
      users.update(people[2]!.id, (current) => ({ user: { ...current, name: 'Half', email: people[3]!.email } })),
      users.update(people[3]!.id, rename('Fourth')),
      users.update('nobody', rename('Nobody')),
      users.update(people[5]!.id, rename('Sixth')),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(PreconditionFailedError);
    expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(EmailTakenError);
    expect((outcomes[4] as PromiseFulfilledResult<User | null>).value).toBeNull();
    const names = await Promise.all(people.map(async ({ id }) => (await users.findById(id))?.name));
    expect(names).toEqual(['First', people[1]!.name, people[2]!.name, 'Fourth', people[4]!.name, 'Sixth']);
  });

  it('open the sessions of sign-ins sent together, and a change with them, each standing alone', async () => {
    const people = Array.from({ length: 3 }, () => sampleUser());
    const inactive = sampleUser({ active: 0 });
    for (const user of [...people, inactive]) await database.repositories.users.insert(user);
    const { sessions, users } = database.repositories;
    const signIn = (user: User) => {
      const session = sampleSession({ subjectId: user.id });
      return { session, opened: sessions.create(session, firstTokenOf(session), user) };
    };
    const signIns = [...people, inactive].map(signIn);
    const renamed = users.update(people[0]!.id, rename('Renamed'));
    expect(await Promise.all(signIns.map(({ opened }) => opened))).toEqual([true, true, true, false]);
    expect((await renamed)?.name).toBe('Renamed');
    const stored = await Promise.all(signIns.map(({ session }) => sessions.findSession(session.id)));
    expect(stored.map((session) => session?.id ?? null)).toEqual([
      ...signIns.slice(0, 3).map(({ session }) => session.id),
      null,
    ]);
  });

  /** A record under a readable id. */
  const record = (id: string, changes: AuditChanges | null = null) =>
    auditRecord(`00000000-0000-4000-8000-${id.padStart(12, '0')}`, new Date(), SYSTEM, 'user.updated', null, changes);

  /** A group commit of its own on a second connection to the file, closed after `use`. */
  async function withGroup(use: (writes: SqliteGroupCommit, client: SqliteConnection) => Promise<void>) {
    const client = connectSqlite(file.path);
    try {
      await use(new SqliteGroupCommit(drizzle(client), groupAudit), client);
    } finally {
      client.close();
    }
  }

  it('chain the events of the writes that stand at their commit, after those already waiting, and none of a write undone', async () => {
    const { audit } = database.repositories;
    const before = (await audit.state()).head;
    await withGroup(async (writes, client) => {
      const [waiting, first, undone, last] = ['waiting', 'first', 'undone', 'last'].map((id) => record(id));
      // Recorded outside any group: it waits in audit_pending for its place.
      drizzle(client).transaction((tx) => appendAuditEvent(tx, waiting!), { behavior: 'immediate' });
      const outcomes = await Promise.allSettled([
        writes.run((tx) => appendAuditEvent(tx, first!)),
        writes.run((tx) => {
          appendAuditEvent(tx, undone!);
          throw new PreconditionFailedError();
        }),
        writes.run((tx) => appendAuditEvent(tx, last!)),
      ]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(client.prepare('select count(*) as n from audit_pending').get()).toEqual({ n: 0 });
      const chained = await audit.chain(before.seq, 10);
      expect(chained.map((event) => event.id)).toEqual([waiting!.id, first!.id, last!.id]);
      const state = await audit.state();
      expect(state.head.seq).toBe(before.seq + 3);
      expect((await verifyAuditChain(state, await audit.chain(state.cut.seq, 1000))).broken).toBeNull();
    });
  });

  it('fail alone the write whose event cannot be stored, and chain its neighbour', async () => {
    const { audit } = database.repositories;
    const before = (await audit.state()).head;
    await withGroup(async (writes) => {
      const stands = record('stands');
      const unstorable = record('unstorable', { count: { before: 1n, after: 2n } } as unknown as AuditChanges);
      const outcomes = await Promise.allSettled([
        writes.run((tx) => appendAuditEvent(tx, stands)),
        writes.run((tx) => appendAuditEvent(tx, unstorable)),
      ]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected']);
      expect((await audit.chain(before.seq, 10)).map((event) => event.id)).toEqual([stands.id]);
    });
  });
});
