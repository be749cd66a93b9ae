import { DrizzleQueryError } from 'drizzle-orm';
import { describeDriverCode } from './driver-error-causes';
import { DatabaseUnavailableError, DomainError, EmailTakenError, type Repositories } from '@uas/domain';

const explained = (code: string) =>
  `${describeDriverCode(code) ?? 'the database answered with an error this service does not describe; look the code up in its documentation'} (code ${code})`;

/**
 * A database fault, described by the operation and the driver's error code, explained in words
 * with what to change: driver and query errors carry SQL text and parameter values (hashes,
 * emails), which must not travel on.
 */
export class PersistenceError extends Error {
  override readonly name = 'PersistenceError';
  constructor(
    readonly operation: string,
    readonly driverCode: string | undefined,
  ) {
    super(`The database operation ${operation} failed${driverCode ? `: ${explained(driverCode)}` : ''}.`);
  }
}

/**
 * The database went away under an operation, or could not be reached: the client gets a 503 it
 * may retry (nothing was acknowledged), the log gets the operation and the driver's code.
 */
class DatabaseUnreachableError extends DatabaseUnavailableError {
  override readonly name = 'DatabaseUnreachableError';
  constructor(
    readonly operation: string,
    readonly driverCode: string,
  ) {
    super();
    this.cause = `${operation}: the database could not be reached, or dropped the connection; check DATABASE_URL and that the server (or pooler) runs and has connections to spare (code ${driverCode})`;
  }
}

/**
 * What says the connection, not the statement, failed. postgres.js: its own codes for a
 * connection closed, ended or not made in time, and Node's socket errors. PostgreSQL: class 08
 * (connection exception: also what PgBouncer answers when it cannot reach the server or waited
 * too long for one), 57P01-57P03 (terminated by an administrator, a crash, a server starting or
 * stopping) and 53300 (no connection slot left).
 */
const UNREACHABLE = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

const isUnreachable = (code: string) => UNREACHABLE.has(code) || code.startsWith('08');

interface DriverError {
  code?: unknown;
  message?: unknown;
  /** postgres.js */
  constraint_name?: unknown;
}

function driverError(error: unknown): DriverError {
  const cause = error instanceof DrizzleQueryError ? error.cause : error;
  return typeof cause === 'object' && cause !== null ? (cause as DriverError) : {};
}

/** A second row with the same email: `23505` on a `*_email_unique` constraint, or SQLite's equivalent. */
function isEmailUniqueViolation({ code, message, constraint_name }: DriverError): boolean {
  if (code === '23505') return typeof constraint_name === 'string' && constraint_name.endsWith('_email_unique');
  // SQLite names the column in the message: "UNIQUE constraint failed: users.email".
  return code === 'SQLITE_CONSTRAINT_UNIQUE' && typeof message === 'string' && message.endsWith('.email');
}

/**
 * A second row with the same key: `23505` on `constraint`, or SQLite's equivalent, whose message
 * names the key's columns ("UNIQUE constraint failed: factors.credential_id").
 */
export function isUniqueViolation(error: unknown, constraint: string, columns: string): boolean {
  const { code, message, constraint_name } = driverError(error);
  if (code === '23505') return constraint_name === constraint;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' && typeof message === 'string' && message.endsWith(`: ${columns}`);
}

/** A passkey registered twice. */
export const isCredentialIdTaken = (error: unknown): boolean =>
  isUniqueViolation(error, 'factors_credential_id_unique', 'factors.credential_id');

/** A row naming one that is not there (any more): `23503`, or SQLite's equivalent. */
export function isForeignKeyViolation(error: unknown): boolean {
  const { code } = driverError(error);
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** What an error thrown while talking to the database becomes at the port. */
export function toDomainError(error: unknown, operation: string): Error {
  if (error instanceof DomainError || error instanceof PersistenceError) return error;
  const cause = driverError(error);
  if (isEmailUniqueViolation(cause)) return new EmailTakenError();
  const code = typeof cause.code === 'string' ? cause.code : undefined;
  if (code !== undefined && isUnreachable(code)) return new DatabaseUnreachableError(operation, code);
  return new PersistenceError(operation, code);
}

/** Whether `error` says a connection failed (see UNREACHABLE), whatever was being done with it. */
export function isConnectionFailure(error: unknown): boolean {
  const { code } = driverError(error);
  return typeof code === 'string' && isUnreachable(code);
}

export async function guarded<T>(operation: string, work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toDomainError(error, operation);
  }
}

/** The same repository, with every failure of every method translated by toDomainError. */
function guardedRepository<T extends object>(port: string, repository: T): T {
  return new Proxy(repository, {
    get(target, property, receiver) {
      const member: unknown = Reflect.get(target, property, receiver);
      if (typeof member !== 'function') return member;
      return (...args: unknown[]) => guarded(`${port}.${String(property)}`, () => member.apply(target, args));
    },
  });
}

export function guardedRepositories(repositories: Repositories): Repositories {
  return {
    users: guardedRepository('users', repositories.users),
    admins: guardedRepository('admins', repositories.admins),
    adminInvitations: guardedRepository('adminInvitations', repositories.adminInvitations),
    sessions: guardedRepository('sessions', repositories.sessions),
    attempts: guardedRepository('attempts', repositories.attempts),
    signingKeys: guardedRepository('signingKeys', repositories.signingKeys),
    rehash: guardedRepository('rehash', repositories.rehash),
    imports: guardedRepository('imports', repositories.imports),
    activity: guardedRepository('activity', repositories.activity),
    audit: guardedRepository('audit', repositories.audit),
    secrets: guardedRepository('secrets', repositories.secrets),
    mail: guardedRepository('mail', repositories.mail),
    tokens: guardedRepository('tokens', repositories.tokens),
    rateCounters: guardedRepository('rateCounters', repositories.rateCounters),
    mailRequests: guardedRepository('mailRequests', repositories.mailRequests),
    invitations: guardedRepository('invitations', repositories.invitations),
    factors: guardedRepository('factors', repositories.factors),
    signInChallenges: guardedRepository('signInChallenges', repositories.signInChallenges),
    webhooks: guardedRepository('webhooks', repositories.webhooks),
    webhookDeliveries: guardedRepository('webhookDeliveries', repositories.webhookDeliveries),
    identityProviders: guardedRepository('identityProviders', repositories.identityProviders),
    externalIdentities: guardedRepository('externalIdentities', repositories.externalIdentities),
    oauthAttempts: guardedRepository('oauthAttempts', repositories.oauthAttempts),
    oauthClients: guardedRepository('oauthClients', repositories.oauthClients),
    openIdRecords: guardedRepository('openIdRecords', repositories.openIdRecords),
  };
}
