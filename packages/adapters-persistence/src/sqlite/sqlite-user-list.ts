import { asc, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { ListedUser, UserListQuery, UserPage } from '@uas/domain';
import { ftsPhrase, isTrigramSearchable } from '../shared/email-search';
import { containsPattern } from '../shared/like-pattern';
import { pageWindow, type PageWindow } from '../shared/page-window';
import type { SqliteDb } from './sqlite-db';
import { userCount, users } from './sqlite-schema';

// The list returns every column but the password hash.
const { passwordHash: _hash, ...listedColumns } = getTableColumns(users);

/**
 * Stepping over a row of the (created, id) index costs about a hundredth of fetching a matching
 * row to sort it (measured at a million users): a search walks the index in order, testing each
 * rowid against its matches, while that reads fewer than this many index entries per match.
 */
const WALK_PER_MATCH = 100;

/**
 * A search with at most this many matches reads their rowids once (a few hundred kilobytes at
 * most) and chooses its page among them; a larger one is counted in the index and matched again
 * for its page. Matching costs what the doclists of the term's trigrams cost, so once is better.
 */
const MATCHES_HELD = 20_000;

const ftsMatch = sql`users_email_fts match ${sql.placeholder('match')}`;
const match = sql`select rowid from users_email_fts where ${ftsMatch}`;
const listed = sql`select value from json_each(${sql.placeholder('rowids')})`;

/**
 * How a page's rowids are chosen: the first part of the index's order (`none`), among the
 * trigram index's matches by walking the index (`walk`) or by fetching and sorting them all
 * (`sort`); the same with the matches read already (`walkListed`, `sortListed`); or by a LIKE
 * on each row for a term too short for trigrams (`scan`).
 */
type Strategy = 'none' | 'walk' | 'sort' | 'scan' | 'walkListed' | 'sortListed';

const filters: Record<Strategy, { from: SQL; where: SQL }> = {
  none: { from: sql`users indexed by users_created_id_idx`, where: sql`true` },
  // `+rowid` keeps the planner from turning the test into rowid look-ups, which the sort does.
  walk: { from: sql`users indexed by users_created_id_idx`, where: sql`+rowid in (${match})` },
  sort: { from: sql`users`, where: sql`rowid in (${match})` },
  // The same two with the matches read already, as a JSON array of rowids.
  walkListed: { from: sql`users indexed by users_created_id_idx`, where: sql`+rowid in (${listed})` },
  sortListed: { from: sql`users`, where: sql`rowid in (${listed})` },
  // A short term has no index: each row is read and tested, in order (cost grows with the table).
  scan: {
    from: sql`users indexed by users_created_id_idx`,
    where: sql`email like ${sql.placeholder('pattern')} escape '\\'`,
  },
};

/**
 * A page of users as a deferred join: the rowids of the page are chosen from the covering
 * (created, id) index (or the matches), stepping over skipped entries without reading their
 * rows, and only the page's rows are then read. Exported for the query plan tests.
 */
export function selectUserPage(db: SqliteDb, strategy: Strategy, descending: boolean) {
  const { from, where } = filters[strategy];
  const direction = sql.raw(descending ? 'desc' : 'asc');
  return db
    .select(listedColumns)
    .from(users)
    .where(
      sql`rowid in (select rowid from ${from} where ${where} order by created ${direction}, id ${direction}
        limit ${sql.placeholder('limit')} offset ${sql.placeholder('offset')})`,
    )
    .orderBy(asc(users.created), asc(users.id));
}

/** The first `limit` matches' rowids, from the trigram index alone. */
export function selectMatches(db: SqliteDb) {
  return db
    .select({ rowid: sql<number>`rowid` })
    .from(sql`users_email_fts`)
    .where(ftsMatch)
    .limit(sql.placeholder('limit'));
}

/** Totals: the counter for everyone; the trigram index's matches, read from the index alone; or a scan for a short term. */
export function selectUserTotal(db: SqliteDb, strategy: 'none' | 'match' | 'scan') {
  if (strategy === 'none') return db.select({ total: userCount.users }).from(userCount).where(eq(userCount.id, 1));
  if (strategy === 'match')
    return db.select({ total: sql<number>`count(*)` }).from(sql`users_email_fts`).where(ftsMatch);
  return db.select({ total: sql<number>`count(*)` }).from(users).where(filters.scan.where);
}

function prepareListStatements(db: SqliteDb) {
  const pages = (strategy: Strategy) => ({
    asc: selectUserPage(db, strategy, false).prepare(),
    desc: selectUserPage(db, strategy, true).prepare(),
  });
  return {
    pages: {
      none: pages('none'),
      walk: pages('walk'),
      sort: pages('sort'),
      scan: pages('scan'),
      walkListed: pages('walkListed'),
      sortListed: pages('sortListed'),
    },
    matches: selectMatches(db).prepare(),
    totals: {
      none: selectUserTotal(db, 'none').prepare(),
      match: selectUserTotal(db, 'match').prepare(),
      scan: selectUserTotal(db, 'scan').prepare(),
    },
  };
}

/**
 * The user list on one SQLite connection, synchronously: on the event loop's connection, or on a
 * read worker's own (see SqliteReadWorkers).
 */
export class SqliteUserList {
  private prepared: ReturnType<typeof prepareListStatements> | undefined;

  constructor(private readonly db: SqliteDb) {}

  /** Prepared on first use, once the migrations have made the tables they read. */
  private get statements() {
    return (this.prepared ??= prepareListStatements(this.db));
  }

  list({ page, size, emailContains }: UserListQuery): UserPage {
    // One read transaction, so the page and the total describe the same moment.
    return this.db.transaction(() => {
      const { pages, totals } = this.statements;
      if (!emailContains) {
        const total = totals.none.get()?.total ?? 0;
        return { total, users: this.read(pages.none, pageWindow(total, page, size), {}) };
      }
      if (!isTrigramSearchable(emailContains)) {
        const values = { pattern: containsPattern(emailContains) };
        const total = totals.scan.get(values)?.total ?? 0;
        return { total, users: this.read(pages.scan, pageWindow(total, page, size), values) };
      }
      const values = { match: ftsPhrase(emailContains) };
      const everyone = totals.none.get()?.total ?? 0;
      const held = this.statements.matches.all({ ...values, limit: MATCHES_HELD + 1 });
      const all = held.length <= MATCHES_HELD;
      const total = all ? held.length : (totals.match.get(values)?.total ?? 0);
      const window = pageWindow(total, page, size);
      const walk = window !== null && ((window.offset + window.limit) * everyone) / total <= WALK_PER_MATCH * total;
      if (!all) return { total, users: this.read(walk ? pages.walk : pages.sort, window, values) };
      const rowids = { rowids: JSON.stringify(held.map((found) => found.rowid)) };
      return { total, users: this.read(walk ? pages.walkListed : pages.sortListed, window, rowids) };
    });
  }

  private read(
    statements: {
      asc: { all(values: Record<string, unknown>): ListedUser[] };
      desc: { all(values: Record<string, unknown>): ListedUser[] };
    },
    window: PageWindow | null,
    values: Record<string, unknown>,
  ): ListedUser[] {
    if (window === null) return [];
    const { descending, offset, limit } = window;
    return (descending ? statements.desc : statements.asc).all({ ...values, offset, limit });
  }
}
