/**
 * What a database error code means, in words an operator can act on, and what to change: the
 * message of a failed operation says this rather than a bare SQLSTATE (issue 29). Codes not
 * listed fall back to their PostgreSQL class, or to SQLite's primary code.
 */
interface Cause {
  readonly what: string;
  readonly remedy: string;
}

const MIGRATE = 'run `uas db migrate` (the server also migrates at start)';

const CAUSES: Readonly<Record<string, Cause>> = {
  '57014': {
    what: 'a statement ran longer than the statement timeout and was cancelled',
    remedy:
      'raise DATABASE_STATEMENT_TIMEOUT_MS (5000 ms by default) if the work is legitimately long, and report the operation if it is not',
  },
  '55P03': {
    what: 'a lock could not be taken within the lock timeout',
    remedy: 'find the session holding it (pg_stat_activity, pg_locks) or raise the role’s lock_timeout',
  },
  '40001': {
    what: 'the transaction conflicted with a concurrent one (serialization failure)',
    remedy: 'retry the operation',
  },
  '40P01': { what: 'a deadlock between concurrent transactions', remedy: 'retry the operation' },
  '25006': {
    what: 'the database accepts no writes (a read-only transaction or a standby)',
    remedy: 'point DATABASE_URL at the primary',
  },
  '42501': {
    what: 'the database role lacks a privilege the operation needs',
    remedy: 'grant the role of DATABASE_URL rights on the tables of DATABASE_SCHEMA',
  },
  '42P01': { what: 'a table is missing: the schema is older than this release', remedy: MIGRATE },
  '42703': { what: 'a column is missing: the schema is older than this release', remedy: MIGRATE },
  '53100': {
    what: 'the database server ran out of disk space',
    remedy: 'free or add disk space on the database server',
  },
  '53200': { what: 'the database server ran out of memory', remedy: 'give the database server more memory' },
  '54000': { what: 'a statement exceeded a limit of the database server', remedy: 'report the operation' },
  // postgres.js as patched (patches/postgres@3.4.9.patch): nothing reached the database.
  TRANSACTION_ENDED: {
    what: 'a statement was sent through a transaction that had already ended, and was not run',
    remedy: 'report the operation',
  },
  SQLITE_BUSY: {
    what: 'another process held the database file locked longer than the busy timeout',
    remedy: 'make sure one service process (and one CLI command at a time) writes to the SQLite file',
  },
  SQLITE_FULL: { what: 'the disk holding the database file is full', remedy: 'free or add disk space' },
  SQLITE_READONLY: {
    what: 'the database file cannot be written',
    remedy: 'give the service user write access to the file named by DATABASE_URL and its directory',
  },
  SQLITE_CANTOPEN: {
    what: 'the database file cannot be opened',
    remedy: 'check the path of DATABASE_URL and the rights on its directory',
  },
  SQLITE_CORRUPT: {
    what: 'the database file is damaged',
    remedy: 'restore it from a backup (docs/operations.md)',
  },
  SQLITE_ERROR: { what: 'SQLite refused a statement: the schema may not match this release', remedy: MIGRATE },
  SQLITE_CONSTRAINT: { what: 'a constraint of the schema refused the change', remedy: 'report the operation' },
  SQLITE_IOERR: { what: 'the disk failed to read or write the database file', remedy: 'check the disk and its space' },
};

/** PostgreSQL's error classes (the first two characters of a SQLSTATE), for codes not listed above. */
const CLASSES: Readonly<Record<string, Cause>> = {
  '22': { what: 'the database refused a value (data exception)', remedy: 'report the operation' },
  '23': { what: 'a constraint of the schema refused the change', remedy: 'report the operation' },
  '25': { what: 'the transaction was in a state that refuses the statement', remedy: 'retry the operation' },
  '28': { what: 'the database refused the credentials', remedy: 'check the user and password of DATABASE_URL' },
  '40': { what: 'the database rolled the transaction back', remedy: 'retry the operation' },
  '42': {
    what: 'the database refused a statement: the schema may not match this release',
    remedy: MIGRATE,
  },
  '53': { what: 'the database server lacks a resource (disk, memory, connections)', remedy: 'check the server' },
  '54': { what: 'a statement exceeded a limit of the database server', remedy: 'report the operation' },
  '55': { what: 'an object was not in the state the statement needs (often a lock)', remedy: 'retry the operation' },
  '57': { what: 'an operator or the server interrupted the statement', remedy: 'retry the operation' },
  '58': { what: 'the database server met a system error', remedy: 'check the server’s log' },
  XX: { what: 'the database server met an internal error', remedy: 'check the server’s log' },
};

/** `code` explained for an operator ("a statement ran longer than…; raise …"), or null for none known. */
export function describeDriverCode(code: string): string | null {
  const cause =
    CAUSES[code] ??
    (code.startsWith('SQLITE_') ? CAUSES[code.split('_', 2).join('_')] : CLASSES[code.slice(0, 2)]) ??
    null;
  return cause && `${cause.what}; ${cause.remedy}`;
}
