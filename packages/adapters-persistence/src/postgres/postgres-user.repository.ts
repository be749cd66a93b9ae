import { asc, eq, getTableColumns, is, Placeholder, sql, type SQL } from 'drizzle-orm';
import type { SubqueryWithSelection } from 'drizzle-orm/pg-core';
import type {
  ActionPurpose,
  ActionToken,
  AuditRecord,
  PreparedActionToken,
  User,
  UserListQuery,
  UserPage,
  UserRepository,
  UserWrite,
} from '@uas/domain';
import { chunks, ROWS_PER_INSERT } from '../shared/chunks';
import { usableActionToken } from '../shared/conditions';
import { columnContains } from '../shared/like-pattern';
import { idsOfWindow, MatchCache, matchesOf, type Matches } from '../shared/match-cache';
import { pageWindow, type PageWindow } from '../shared/page-window';
import { appendAuditEvent, writeWithAudit } from './postgres-audit-trail';
import type { PostgresDb, PostgresTx } from './postgres-db';
import { insertActionToken, useToken } from './postgres-action-token-statements';
import { lockedUser, writeUser } from './postgres-user-write';
import { endSubjectSessions } from './postgres-subject-sessions';
import { isRowAndEventOnly, SwiftUserWrites } from './postgres-user-swift-write';
import { actionTokens, userCount, users } from './postgres-schema';

// The list returns every column but the password hash.
const { passwordHash: _hash, ...listedColumns } = getTableColumns(users);

/**
 * A search reads the ids of at most this many matches in order, once per generation, so that the
 * MatchCache serves any of its pages; a larger one is counted, and keeps the first ids only.
 */
const MATCHES_HELD = 20_000;

/** Unlocked tries of an update before it locks the row: a user written this often by others is rare. */
const UNLOCKED_ATTEMPTS = 3;

/**
 * Deep pages start from anchors: every ANCHOR_STEP-th key of the order, read in one scan of the
 * index (a few kilobytes per 1,000 users) and kept for one generation of the table, so a page
 * steps over fewer than this many entries instead of up to half the table. The scan costs about
 * as much as four deep pages, so it is made once that many have been read at one generation:
 * where the users change between every few lists, paging costs what it did without anchors.
 */
const ANCHOR_STEP = 1_000;
const DEEP_PAGES_BEFORE_ANCHORS = 4;

/** `search[email]`: a LIKE on the lower-cased emails, which the trigram index serves. */
const emailFilter = (term: string | undefined): SQL | undefined =>
  term ? columnContains(users.email, term) : undefined;

/**
 * A page of users, read from the nearer end. Without a search it is a deferred join: the ids of
 * the page come from an index-only scan of the covering (created, id) index, stepping over the
 * skipped entries without reading their rows, and only the page's rows are then read. A search
 * must read each candidate row to test its email anyway (the trigram index is lossy, the
 * (created, id) index holds no email), so it selects the page directly and lets the planner
 * choose between the two indexes. Exported for the query plan tests.
 */
export function selectUserPage(
  db: PostgresDb,
  term: string | undefined,
  { descending, offset, limit }: PageWindow | PreparedWindow,
) {
  const direction = sql.raw(descending ? 'desc' : 'asc');
  const order = sql`${users.created} ${direction}, ${users.id} ${direction}`;
  if (term)
    return db.select(listedColumns).from(users).where(emailFilter(term)).orderBy(order).limit(limit).offset(offset);
  return db
    .select(listedColumns)
    .from(users)
    .where(sql`${users.id} in (select id from ${users} order by ${order} limit ${limit} offset ${offset})`)
    .orderBy(asc(users.created), asc(users.id));
}

/** A page window whose offset and limit a prepared statement is given at each call. */
interface PreparedWindow {
  descending: boolean;
  offset: number | Placeholder;
  limit: number | Placeholder;
}

/**
 * The counter and, read from the start, the page at `offset`: one statement, so one snapshot and
 * one round trip instead of a transaction's four. Exported for the query plan tests.
 */
export function selectUserPageWithTotal(db: PostgresDb, offset: number | Placeholder, limit: number | Placeholder) {
  return besideCounter(
    db,
    { total: userCount.users },
    selectUserPage(db, undefined, { descending: false, offset, limit }),
  );
}

/** What the counter row holds (the total, the generation) with a page of users, in one statement: one snapshot. */
function besideCounter<C extends Record<string, SQL | typeof userCount.users>>(
  db: PostgresDb,
  counter: C,
  pageQuery: { as(alias: 'page'): SubqueryWithSelection<typeof listedColumns, 'page'> },
) {
  const page = pageQuery.as('page');
  return db
    .select({ ...counter, user: page._.selectedFields })
    .from(userCount)
    .leftJoin(page, sql`true`)
    .where(eq(userCount.id, 1))
    .orderBy(page.created, page.id);
}

const generation = { generation: sql<string>`${userCount.generation}::text` };

/** A position in the (created, id) order. */
interface Key {
  created: Date;
  id: string;
}

/**
 * Every ANCHOR_STEP-th key of the (created, id) order, from one index-only scan of it: the
 * anchors a deep page starts from. Exported for the query plan tests.
 */
export function selectAnchors(db: PostgresDb) {
  const numbered = db
    .select({
      created: users.created,
      id: users.id,
      position: sql<number>`row_number() over (order by ${users.created}, ${users.id})`.as('position'),
    })
    .from(users)
    .as('numbered');
  return db
    .select({ created: numbered.created, id: numbered.id })
    .from(numbered)
    .where(sql`${numbered.position} % ${ANCHOR_STEP} = 0`)
    .orderBy(numbered.position);
}

/**
 * The page of `limit` users `skip` entries after `anchor` in the (created, id) order: a deferred
 * join over the index, which seeks to the anchor and steps over fewer than ANCHOR_STEP entries.
 */
function selectPageAfter(db: PostgresDb, anchor: Key, skip: number, limit: number) {
  const order = sql`${users.created}, ${users.id}`;
  return db
    .select(listedColumns)
    .from(users)
    .where(
      sql`${users.id} in (select id from ${users} where (${order}) > (${anchor.created.toISOString()}::timestamptz, ${anchor.id})
        order by ${order} limit ${limit} offset ${skip})`,
    )
    .orderBy(asc(users.created), asc(users.id));
}

/**
 * The generation and, in one statement (one snapshot), the page `skip` entries after `anchor`:
 * a deep page whose anchors are known, which holds when the generation is theirs.
 */
function selectPageAfterWithGeneration(db: PostgresDb, anchor: Key, skip: number, limit: number) {
  return besideCounter(db, generation, selectPageAfter(db, anchor, skip, limit));
}

/**
 * The ids of a search's first `limit` matches in (created, id) order, as one JSON array, which the driver parses natively: parsing 10,000 rows of ids for
 * one email domain of 100 cost the server more than the rest of the search. Exported for the
 * query plan tests.
 */
export function selectFirstMatches(db: PostgresDb, term: string, limit: number) {
  const matched = db
    .select({ id: users.id, created: users.created })
    .from(users)
    .where(emailFilter(term))
    .orderBy(asc(users.created), asc(users.id))
    .limit(limit)
    .as('matched');
  return db
    .select({ ids: sql<string[] | null>`json_agg(${matched.id} order by ${matched.created}, ${matched.id})` })
    .from(matched);
}

/**
 * The users with these ids, in (created, id) order: a page whose ids a cached search holds. The
 * ids are one array parameter, so one prepared statement serves every page.
 */
function selectUsersById(db: PostgresDb, ids: readonly string[] | Placeholder) {
  return db
    .select(listedColumns)
    .from(users)
    .where(sql`${users.id} = any(${is(ids, Placeholder) ? ids : sql.param(ids)}::text[])`)
    .orderBy(asc(users.created), asc(users.id));
}

/**
 * The generation and the users with these ids, in (created, id) order, in one statement (so one
 * snapshot): a page of a cached search, which holds when the generation is the cache's.
 * Exported for the query plan tests.
 */
export function selectUsersByIdWithGeneration(db: PostgresDb, ids: readonly string[] | Placeholder) {
  return besideCounter(db, generation, selectUsersById(db, ids));
}

/** The counter: everyone, and the generation (as text) that cached searches and anchors are valid for. */
function selectCounter(db: PostgresDb) {
  return db
    .select({ total: userCount.users, generation: sql<string>`${userCount.generation}::text` })
    .from(userCount)
    .where(eq(userCount.id, 1));
}

/** The total: the counter for everyone; the trigram index's matches for a search. */
export function selectUserTotal(db: PostgresDb, term: string | undefined) {
  return term
    ? db.select({ total: sql<number>`count(*)::int` }).from(users).where(emailFilter(term))
    : db.select({ total: userCount.users }).from(userCount).where(eq(userCount.id, 1));
}

export class PostgresUserRepository implements UserRepository {
  private readonly searches = new MatchCache();
  /** The matches being read, by generation and term: concurrent searches for one term share a read. */
  private readonly reading = new Map<string, Promise<Matches>>();
  /** The generation last read: a cached search of it is tried in one statement first. */
  private generation = '';
  /** The anchors of one generation (being read, or read), or how many deep pages it has seen. */
  private anchors: { generation: string; keys?: Promise<Key[]>; read?: Key[]; deepPages: number } = {
    generation: '',
    deepPages: 0,
  };
  /** The counter as last read: the total of its generation. */
  private counted = { generation: '', total: 0 };

  // Prepared once: the statements of every user read, first page and page of a cached search,
  // built without Drizzle's query builder at each call.
  private readonly userById;
  private readonly firstPages;
  private readonly cachedPages;
  private readonly swiftWrites;

  constructor(private readonly db: PostgresDb) {
    this.userById = db
      .select()
      .from(users)
      .where(eq(users.id, sql.placeholder('id')))
      .prepare('user_by_id');
    this.firstPages = selectUserPageWithTotal(db, sql.placeholder('offset'), sql.placeholder('limit')).prepare(
      'user_page_with_total',
    );
    this.cachedPages = selectUsersByIdWithGeneration(db, sql.placeholder('ids')).prepare('user_page_by_ids');
    this.swiftWrites = new SwiftUserWrites(db);
  }

  async insert(user: User, audit?: AuditRecord, issued?: PreparedActionToken): Promise<void> {
    if (!issued) {
      await writeWithAudit(this.db, audit, async (tx) => {
        await tx.insert(users).values(user);
        return true;
      });
      return;
    }
    await this.db.transaction(async (tx) => {
      await tx.insert(users).values(user);
      await insertActionToken(tx, issued.token, issued.mail);
      if (audit) await appendAuditEvent(tx, audit);
    });
  }

  async insertMany(batch: readonly User[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      for (const rows of chunks(batch, ROWS_PER_INSERT)) await tx.insert(users).values(rows);
    });
  }

  async findById(id: string): Promise<User | null> {
    const [user] = await this.userById.execute({ id });
    return user ?? null;
  }

  async findByEmail(email: string): Promise<User | null> {
    const [user] = await this.db.select().from(users).where(eq(users.email, email));
    return user ?? null;
  }

  async list({ page, size, emailContains }: UserListQuery): Promise<UserPage> {
    if (!emailContains && (page - 1) * size < ANCHOR_STEP) {
      // The first pages are read from the start, with the counter, in one statement.
      const rows = await this.firstPages.execute({ offset: (page - 1) * size, limit: size });
      const total = Number(rows[0]?.total ?? 0);
      const window = pageWindow(total, page, size);
      if (window === null) return { total, users: [] };
      if (!window.descending) return { total, users: rows.flatMap(({ user }) => (user ? [user] : [])) };
    }
    const known = emailContains
      ? await this.cachedSearchPage(emailContains, page, size)
      : await this.anchoredPage(page, size);
    if (known) return known;
    // One snapshot, so the page and the total describe the same moment. postgres.js prepares
    // each statement once per connection and reuses it (its `prepare` option, on by default).
    return this.db.transaction(
      async (tx) => {
        if (!emailContains) {
          const [counter] = await selectCounter(tx);
          const total = Number(counter?.total ?? 0);
          if (counter) this.counted = { generation: counter.generation, total };
          const window = pageWindow(total, page, size);
          if (window === null) return { total, users: [] };
          // The page's place from the start, and the last anchor before it.
          const position = window.descending ? total - window.offset - window.limit : window.offset;
          const before = Math.floor(position / ANCHOR_STEP) - 1;
          const anchors = before >= 0 && counter ? await this.anchorsOf(tx, counter.generation) : undefined;
          const anchor = anchors?.[before];
          if (!anchor) return { total, users: await selectUserPage(tx, undefined, window) };
          const skip = position - (before + 1) * ANCHOR_STEP;
          return { total, users: await selectPageAfter(tx, anchor, skip, window.limit) };
        }
        const matches = await this.matches(tx, emailContains);
        const { total } = matches;
        const window = pageWindow(total, page, size);
        if (window === null) return { total, users: [] };
        const ids = idsOfWindow(matches, window);
        if (ids) return { total, users: await selectUsersById(tx, ids) };
        const rows = await selectUserPage(tx, emailContains, window);
        // A search read from the far end comes last first.
        return { total, users: window.descending ? rows.reverse() : rows };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  }

  /**
   * The anchors of the order at `generation` (read in this transaction's snapshot, or by another
   * at the same generation), once it has seen enough deep pages to pay for them.
   */
  private anchorsOf(tx: PostgresTx, generation: string): Promise<Key[]> | undefined {
    if (this.anchors.generation !== generation) this.anchors = { generation, deepPages: 0 };
    const anchors = this.anchors;
    if (!anchors.keys && ++anchors.deepPages >= DEEP_PAGES_BEFORE_ANCHORS) {
      anchors.keys = selectAnchors(tx).execute();
      // A failed read is tried again by a later page; this one fails with it.
      anchors.keys.then(
        (keys) => {
          anchors.read = keys;
        },
        () => {
          anchors.keys = undefined;
        },
      );
    }
    return anchors.keys;
  }

  /**
   * A deep page, when the anchors of the generation last read are known: the page after its
   * anchor with the generation in one statement (one round trip instead of a transaction's five);
   * undefined when no anchor serves the page or the generation has moved since.
   */
  private async anchoredPage(page: number, size: number): Promise<UserPage | undefined> {
    const { generation, total } = this.counted;
    const keys = this.anchors.generation === generation ? this.anchors.read : undefined;
    const window = keys ? pageWindow(total, page, size) : null;
    if (!keys || !window) return undefined;
    const position = window.descending ? total - window.offset - window.limit : window.offset;
    const before = Math.floor(position / ANCHOR_STEP) - 1;
    const anchor = keys[before];
    if (!anchor) return undefined;
    const skip = position - (before + 1) * ANCHOR_STEP;
    const rows = await selectPageAfterWithGeneration(this.db, anchor, skip, window.limit);
    if (rows[0]?.generation !== generation) return undefined;
    return { total, users: rows.flatMap(({ user }) => (user ? [user] : [])) };
  }

  /**
   * A page of a search cached at the generation last read, in one statement with the generation
   * (one round trip instead of a transaction's five); undefined when the search is not cached,
   * its page is not among the ids held, or the generation has moved since.
   */
  private async cachedSearchPage(term: string, page: number, size: number): Promise<UserPage | undefined> {
    const generation = this.generation;
    const matches = generation ? this.searches.get(term, generation) : undefined;
    if (!matches) return undefined;
    const window = pageWindow(matches.total, page, size);
    const ids = window ? idsOfWindow(matches, window) : [];
    if (!ids) return undefined;
    const rows = await this.cachedPages.execute({ ids });
    const read = rows[0]?.generation ?? '';
    if (read !== generation) {
      this.generation = read;
      return undefined;
    }
    return { total: matches.total, users: rows.flatMap(({ user }) => (user ? [user] : [])) };
  }

  /**
   * What `term` matches in the transaction's snapshot: cached for its generation, or read and
   * cached. Searches for one term at one generation share one read (the matches of a generation
   * are the same in every snapshot that sees it), so a term searched by many at once is read once.
   */
  private async matches(tx: PostgresTx, term: string): Promise<Matches> {
    const [counter] = await selectCounter(tx);
    const generation = counter?.generation ?? '';
    if (!generation) return readMatches(tx, term);
    this.generation = generation;
    const cached = this.searches.get(term, generation);
    if (cached) return cached;
    const key = `${generation}:${term}`;
    let reading = this.reading.get(key);
    if (!reading) {
      reading = readMatches(tx, term).then((matches) => {
        this.searches.set(term, generation, matches);
        return matches;
      });
      this.reading.set(key, reading);
      const done = () => void this.reading.delete(key);
      reading.then(done, done);
    }
    return reading;
  }

  async update(id: string, change: (current: User) => UserWrite): Promise<User | null> {
    // A write of the row and its event alone (a PATCH of a name, say) decides from a plain read
    // and writes only if the row did not change meanwhile: no transaction held across round trips.
    // A write that lost a race reads again, and after a few, or for a write implying more, the row
    // is locked for the read, the decision and the write.
    for (let attempt = 0; attempt < UNLOCKED_ATTEMPTS; attempt++) {
      const read = await this.swiftWrites.read(id);
      if (!read) return null;
      const write = change(read.user);
      if (!isRowAndEventOnly(write)) break;
      const stored = await this.swiftWrites.write(id, read.rowVersion, write);
      if (stored) return stored;
    }
    return this.db.transaction(async (tx) => {
      const current = await lockedUser(tx, id);
      return current ? writeUser(tx, id, change(current)) : null;
    });
  }

  /**
   * The token's use and the change in one transaction: a concurrent use waits for the token's row
   * lock and then finds it used; a change that throws rolls the use back.
   */
  async redeem(
    purpose: ActionPurpose | readonly ActionPurpose[],
    digests: readonly string[],
    now: Date,
    change: (current: User, token: ActionToken) => UserWrite,
  ): Promise<User | null> {
    if (digests.length === 0) return null;
    return this.db.transaction(async (tx) => {
      // Locks in the order every change of a user takes them: its row, then its tokens (a change
      // that voids tokens updates them all). Taken the other way, a reset racing an email change's
      // confirmation deadlocked: each held its own token and waited for the user's row, or the
      // other way round. The token is read first only to learn whose it is, which never changes.
      const [owner] = await tx
        .select({ userId: actionTokens.userId })
        .from(actionTokens)
        .where(usableActionToken(actionTokens, purpose, digests, now));
      const current = owner && (await lockedUser(tx, owner.userId));
      const [token] = current ? await useToken(tx, purpose, digests, now) : [];
      return token && current ? writeUser(tx, token.userId, change(current, token)) : null;
    });
  }

  async delete(id: string, at: Date, check?: (current: User) => AuditRecord | undefined): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const current = await lockedUser(tx, id);
      if (!current) return false;
      const audit = check?.(current);
      await tx.delete(users).where(eq(users.id, id));
      await endSubjectSessions(tx, 'user', id, at);
      if (audit) await appendAuditEvent(tx, audit);
      return true;
    });
  }
}

/** What `term` matches in the transaction's snapshot. */
async function readMatches(tx: PostgresTx, term: string): Promise<Matches> {
  const [first] = await selectFirstMatches(tx, term, MATCHES_HELD + 1);
  const ids = first?.ids ?? [];
  if (ids.length <= MATCHES_HELD) return matchesOf(ids);
  const [counted] = await selectUserTotal(tx, term);
  return matchesOf(ids.slice(0, MATCHES_HELD), Number(counted?.total ?? 0));
}
