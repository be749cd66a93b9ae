import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { EmailTakenError, NotFoundError } from '@uas/domain';
import { PersistenceError, toDomainError } from './driver-errors';

const failedQuery = (cause: object) =>
  new DrizzleQueryError(
    'insert into "users" ("id", "password_hash") values ($1, $2)',
    ['id-1', '$2b$10$secret'],
    cause as Error,
  );

describe('toDomainError()', () => {
  it.each([
    [
      'PostgreSQL',
      {
        code: '23505',
        constraint_name: 'users_email_unique',
        message: 'duplicate key value violates unique constraint',
      },
    ],
    ['PostgreSQL, for admins', { code: '23505', constraint_name: 'admins_email_unique' }],
    ['SQLite', { code: 'SQLITE_CONSTRAINT_UNIQUE', message: 'UNIQUE constraint failed: users.email' }],
  ])('turns a second row with one email into EmailTakenError (%s)', (_, cause) => {
    expect(toDomainError(failedQuery(cause), 'users.insert')).toBeInstanceOf(EmailTakenError);
  });

  it.each([
    [{ code: '23505', constraint_name: 'users_pkey' }, '23505'],
    [
      { code: 'SQLITE_CONSTRAINT_PRIMARYKEY', message: 'UNIQUE constraint failed: users.id' },
      'SQLITE_CONSTRAINT_PRIMARYKEY',
    ],
    [{ code: 'XX999', message: 'something new' }, 'XX999'],
  ])('turns any other fault into a PersistenceError naming the operation and code only', (cause, code) => {
    const error = toDomainError(failedQuery(cause), 'users.insert');
    expect(error).toBeInstanceOf(PersistenceError);
    expect(error.message).toMatch(
      new RegExp(`^The database operation users\\.insert failed: .+ \\(code ${code}\\)\\.$`),
    );
    expect(JSON.stringify({ ...error, message: error.message })).not.toMatch(/insert into|secret|id-1/);
  });

  it.each([
    ['57014', /statement timeout and was cancelled; raise DATABASE_STATEMENT_TIMEOUT_MS/],
    ['42P01', /table is missing.*uas db migrate/],
    ['SQLITE_BUSY_SNAPSHOT', /held the database file locked/],
    ['TRANSACTION_ENDED', /transaction that had already ended, and was not run; report the operation/],
    ['53300', /./],
    ['XX999', /internal error/],
    ['ZZ000', /does not describe; look the code up/],
  ])('explains code %s in words, with what to change, never the code alone', (code, words) => {
    const { message } = new PersistenceError('imports.importBatch', code);
    expect(message).toMatch(words);
    expect(message).toMatch(new RegExp(`\\(code ${code}\\)\\.$`));
  });

  it('copes with errors that carry no code', () => {
    expect(toDomainError(new TypeError('The database connection is not open'), 'users.findById').message).toBe(
      'The database operation users.findById failed.',
    );
  });

  it('passes domain errors, and errors it made already, through unchanged', () => {
    const notFound = new NotFoundError('user');
    const persistence = new PersistenceError('database.migrate', '42P07');
    expect(toDomainError(notFound, 'users.insert')).toBe(notFound);
    expect(toDomainError(persistence, 'database.migrate')).toBe(persistence);
  });
});
