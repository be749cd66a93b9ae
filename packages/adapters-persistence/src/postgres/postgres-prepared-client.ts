import type postgres from 'postgres';

type Client = postgres.Sql | postgres.TransactionSql;
type Unsafe = (query: string, parameters?: unknown[], options?: object) => unknown;
type Scoped = (...args: unknown[]) => unknown;

/** A LIKE on a parameter (columnContains): a search, whose best plan depends on its term. */
const SEARCH = / like \$\d+/i;

/**
 * The pool as Drizzle should see it: every statement prepared. Drizzle asks postgres.js not to
 * prepare a query it was given no name for, and unpatched postgres.js sent such a statement with
 * parameters in two round trips (it has the server describe the parameters first, then binds
 * them), which the server parses again every time: a lookup by key took 0.64 ms instead of 0.19
 * on one connection, and a first page of users paid eight round trips instead of four. Prepared,
 * a statement is parsed once per connection and then sent with its parameters in one round trip.
 * PostgreSQL plans a prepared statement for its parameters at its first five executions, then
 * keeps one generic plan when that costs no more, so a lookup by key is planned once per
 * connection instead of at every call (PostgreSQL CPU per first page of users 0.71 -> 0.54 ms).
 * A search is the exception: its best plan depends on its term, and one generic plan would serve
 * every term, so a statement with a LIKE on a parameter is not prepared but sent unnamed, which
 * PostgreSQL plans for each call's term (after a connection's first call, in one round trip with
 * the parameter types learnt then: see patches/postgres@3.4.9.patch). Transactions and
 * savepoints hand their callbacks a client that prepares as well.
 */
export function preparingClient<T extends Client>(client: T): T {
  return new Proxy(client, {
    get(target, property, receiver) {
      const member: unknown = Reflect.get(target, property, receiver);
      if (typeof member !== 'function') return member;
      if (property === 'unsafe') {
        return (query: string, parameters?: unknown[], options?: object) =>
          (member as Unsafe).call(target, query, parameters, { ...options, prepare: !SEARCH.test(query) });
      }
      if (property === 'begin' || property === 'savepoint') {
        return (...args: unknown[]) => {
          const callback = args.pop() as (tx: postgres.TransactionSql) => unknown;
          return (member as Scoped).call(target, ...args, (tx: postgres.TransactionSql) =>
            callback(preparingClient(tx)),
          );
        };
      }
      return member;
    },
  });
}
