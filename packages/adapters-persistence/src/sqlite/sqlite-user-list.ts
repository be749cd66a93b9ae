import { asc, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { ListedUser, UserListQuery, UserPage } from '@uas/domain';
import { ftsPhrase, isTrigramSearchable } from '../shared/email-search';
import { containsPattern } from '../shared/like-pattern';
import { idsOfWindow, matchesOf, type MatchCache, type Matches } from '../shared/match-cache';
import { pageWindow, type PageWindow } from '../shared/page-window';
import { HeldWhileUnchanged } from './sqlite-change-stamp';
import type { SqliteDb } from './sqlite-db';
import { userCount, users } from './sqlite-schema';
import { TrigramSample } from './trigram-sample';

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
 * most) and puts them in order, so that the MatchCache serves any of its pages; a larger one is
 * counted in the index and matched again for each page.
 */
const MATCHES_HELD = 20_000;

/**
 * An unfiltered page whose read steps over at most this many index entries (a tenth of a
 * millisecond or so) is cheap enough to read where the request is served, without handing it to
 * a read worker: the first and last pages, and those near them.
 */
const CHEAP_STEPS = 1_000;

/**
 * A search with at most this many matches reads their whole rows at once, in order, rather than
 * their ids and then the page's rows by id: a handful of matches costs one read of each row.
 */
const ROWS_READ_WHOLE = 100;

/**
 * Lists answered from memory at most, until anything in the file changes: the first page (the
 * list's landing page, asked for by every admin who opens it) and the few others read again.
 */
const REPLIES_HELD = 64;

const ftsMatch = sql`users_email_fts match ${sql.placeholder('match')}`;
const match = sql`select rowid from users_email_fts where ${ftsMatch}`;
const listed = sql`select value from json_each(${sql.placeholder('listed')})`;

/**
 * How a page's rowids are chosen: the first part of the index's order (`none`), among the
 * trigram index's matches by walking the index (`walk`) or by fetching and sorting them all
 * (`sort`); by a LIKE on each row for a term too short for trigrams (`scan`); or by their ids,
 * known already (`listed`).
 */
type Strategy = 'none' | 'walk' | 'sort' | 'scan' | 'listed';

const filters: Record<Strategy, { from: SQL; where: SQL }> = {
  none: { from: sql`users indexed by users_created_id_idx`, where: sql`true` },
  // `+rowid` keeps the planner from turning the test into rowid look-ups, which the sort does.
  walk: { from: sql`users indexed by users_created_id_idx`, where: sql`+rowid in (${match})` },
  sort: { from: sql`users`, where: sql`rowid in (${match})` },
  // The page's ids, as a JSON array: a look-up of each in the primary key.
  listed: { from: sql`users`, where: sql`id in (${listed})` },
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

/**
 * The first `limit` rowids of the users whose email holds the pattern, among the trigram index's
 * matches of a query of some of its trigrams (see TrigramSample).
 */
function selectCheckedMatches(db: SqliteDb) {
  return db
    .select({ rowid: sql<number>`rowid` })
    .from(users)
    .where(sql`rowid in (${match}) and ${filters.scan.where}`)
    .limit(sql.placeholder('limit'));
}

/** The emails of the users with the rowids in a JSON array (those that exist). */
function selectEmails(db: SqliteDb) {
  return db.select({ email: users.email }).from(users).where(sql`rowid in (${listed})`);
}

/** The largest rowid: rowids are given in increasing order, so the sample draws from 1 to it. */
function selectLastRowid(db: SqliteDb) {
  return db.select({ rowid: sql<number>`coalesce(max(rowid), 0)` }).from(users);
}

/** The ids of the users with the rowids in a JSON array, in (created, id) order. */
export function selectOrderedIds(db: SqliteDb) {
  return db
    .select({ id: users.id })
    .from(users)
    .where(sql`rowid in (${listed})`)
    .orderBy(asc(users.created), asc(users.id));
}

/** The users with the rowids in a JSON array, in (created, id) order. */
export function selectOrderedUsers(db: SqliteDb) {
  return db
    .select(listedColumns)
    .from(users)
    .where(sql`rowid in (${listed})`)
    .orderBy(asc(users.created), asc(users.id));
}

/** The counter: everyone, and the generation (as text, so that all its 64 bits count). */
export function selectCounter(db: SqliteDb) {
  return db
    .select({ total: userCount.users, generation: sql<string>`cast(${userCount.generation} as text)` })
    .from(userCount)
    .where(eq(userCount.id, 1));
}

/** A search's total: the trigram index's matches, read from the index alone; or a scan for a short term. */
export function selectUserTotal(db: SqliteDb, strategy: 'match' | 'scan') {
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
      listed: pages('listed'),
    },
    matches: selectMatches(db).prepare(),
    checkedMatches: selectCheckedMatches(db).prepare(),
    emails: selectEmails(db).prepare(),
    lastRowid: selectLastRowid(db).prepare(),
    orderedIds: selectOrderedIds(db).prepare(),
    orderedUsers: selectOrderedUsers(db).prepare(),
    counter: selectCounter(db).prepare(),
    totals: {
      match: selectUserTotal(db, 'match').prepare(),
      scan: selectUserTotal(db, 'scan').prepare(),
    },
  };
}

/** A list's page, and the matches of its search when it read them (for the MatchCache). */
export interface ListReply {
  page: UserPage;
  found?: { term: string; generation: string; matches: Matches };
}

/**
 * The user list on one SQLite connection, synchronously: on the event loop's connection, or on a
 * read worker's own (see SqliteReadWorkers).
 */
export class SqliteUserList {
  private prepared: ReturnType<typeof prepareListStatements> | undefined;
  private readonly sample = new TrigramSample();
  /** Lists read since the file last changed, by query. */
  private readonly replies: HeldWhileUnchanged<ListReply>;

  constructor(private readonly db: SqliteDb) {
    this.replies = new HeldWhileUnchanged(db, REPLIES_HELD);
  }

  /** Prepared on first use, once the migrations have made the tables they read. */
  private get statements() {
    return (this.prepared ??= prepareListStatements(this.db));
  }

  /**
   * The page, using the searches in `cache` that are valid for the table's generation; with
   * `cheapOnly`, undefined instead when the page costs more than a page of ids or a short walk of
   * the index.
   */
  list(query: UserListQuery, cache?: MatchCache, cheapOnly = false): ListReply | undefined {
    // A list read since the last change to the file is still exact: the same again, from memory.
    const replies = this.replies.now();
    const key = JSON.stringify([query.page, query.size, query.emailContains]);
    const held = replies.get(key);
    if (held) return held;
    const reply = this.read(query, cache, cheapOnly);
    if (reply) replies.add(key, freeze(reply));
    return reply;
  }

  private read(query: UserListQuery, cache: MatchCache | undefined, cheapOnly: boolean): ListReply | undefined {
    const { page, size, emailContains } = query;
    // A search that is not cached is never cheap: no need to read the counter to know it.
    if (cheapOnly && emailContains && !(isTrigramSearchable(emailContains) && cache?.has(emailContains)))
      return undefined;
    // One read transaction, so the page and the total describe the same moment.
    return this.db.transaction(() => {
      const { pages, totals, counter } = this.statements;
      const { total: everyone, generation } = counter.get() ?? { total: 0, generation: '' };
      if (!emailContains) {
        const window = pageWindow(everyone, page, size);
        if (cheapOnly && window !== null && window.offset > CHEAP_STEPS) return undefined;
        return { page: { total: everyone, users: this.readPage(pages.none, window, {}) } };
      }
      if (!isTrigramSearchable(emailContains)) {
        if (cheapOnly) return undefined;
        const values = { pattern: containsPattern(emailContains) };
        const total = totals.scan.get(values)?.total ?? 0;
        return { page: { total, users: this.readPage(pages.scan, pageWindow(total, page, size), values) } };
      }
      const cached = cache?.get(emailContains, generation);
      if (cheapOnly && !cached) return undefined;
      const values = { match: ftsPhrase(emailContains) };
      const fresh = cached ? undefined : this.matches(emailContains, everyone);
      const matches = cached ?? fresh!.matches;
      const window = pageWindow(matches.total, page, size);
      const ids = window && idsOfWindow(matches, window);
      if (cheapOnly && window && !ids) return undefined;
      const found = cached || !generation ? undefined : { term: emailContains, generation, matches };
      if (!window) return { page: { total: matches.total, users: [] }, found };
      if (ids && fresh?.users) {
        const byId = new Map(fresh.users.map((user) => [user.id, user]));
        return { page: { total: matches.total, users: ids.map((id) => byId.get(id)!) }, found };
      }
      if (ids) {
        const listed = { listed: JSON.stringify(ids) };
        const all = { descending: false, offset: 0, limit: ids.length };
        return { page: { total: matches.total, users: this.readPage(pages.listed, all, listed) }, found };
      }
      const walk = ((window.offset + window.limit) * everyone) / matches.total <= WALK_PER_MATCH * matches.total;
      return {
        page: { total: matches.total, users: this.readPage(walk ? pages.walk : pages.sort, window, values) },
        found,
      };
    });
  }

  /**
   * What the term matches: its rowids read once and put in order, or counted in the index when
   * there are many. They are read through the term's rare trigrams and checked with LIKE where it
   * has some, else as the whole phrase. A few matches come with their rows, in order.
   */
  private matches(term: string, everyone: number): { matches: Matches; users?: ListedUser[] } {
    const { matches, checkedMatches, orderedIds, orderedUsers, totals } = this.statements;
    const phrase = { match: ftsPhrase(term) };
    this.sample.refresh(everyone, (size) => this.sampleEmails(size));
    const rare = this.sample.rareQuery(term);
    const limit = MATCHES_HELD + 1;
    const held = rare
      ? checkedMatches.all({ match: rare, pattern: containsPattern(term), limit })
      : matches.all({ ...phrase, limit });
    if (held.length > MATCHES_HELD) return { matches: matchesOf([], totals.match.get(phrase)?.total ?? 0) };
    const listed = JSON.stringify(held.map((found) => found.rowid));
    if (held.length <= ROWS_READ_WHOLE) {
      const users = orderedUsers.all({ listed });
      return { matches: matchesOf(users.map((user) => user.id)), users };
    }
    return { matches: matchesOf(orderedIds.all({ listed }).map((user) => user.id)) };
  }

  /** The emails of up to `size` users at random rowids (all of them in a table that small). */
  private sampleEmails(size: number): string[] {
    const { emails, lastRowid } = this.statements;
    const last = lastRowid.get()?.rowid ?? 0;
    const rowids = last <= size ? Array.from({ length: last }, (_, at) => at + 1) : [];
    while (rowids.length < Math.min(size, last)) rowids.push(1 + Math.floor(Math.random() * last));
    return emails.all({ listed: JSON.stringify(rowids) }).map((user) => user.email);
  }

  private readPage(
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

/** A held reply, shared by every request that gets it: none may change it. */
function freeze(reply: ListReply): ListReply {
  for (const user of reply.page.users) Object.freeze(user);
  Object.freeze(reply.page.users);
  Object.freeze(reply.page);
  return Object.freeze(reply);
}
