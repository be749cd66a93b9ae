import { afterAll, beforeAll } from 'vitest';
import { describeRepositoryContracts } from '@uas/domain/testing';
import { openDatabase } from '../database';
import type { Database } from '../shared/database-handle';
import { parseDatabaseUrl } from '../database-url';
import { holdAuditedWrite, sqlAuditTampering } from '../testing/audit-tampering';
import { createTestPostgresSchema, type TestPostgresSchema } from '../testing/postgres-test-database';

// One migrated schema for the file; each test starts from empty tables.
let schema: TestPostgresSchema;
let database: Database;
/** A second instance of the service over the same schema: its own pool and caches. */
let another: Database;

beforeAll(async () => {
  schema = await createTestPostgresSchema();
  database = await openDatabase(parseDatabaseUrl(schema.url), { ...schema.options, poolSize: 4 });
  await database.migrate();
  another = await openDatabase(parseDatabaseUrl(schema.url), { ...schema.options, poolSize: 4 });
});

afterAll(async () => {
  await another?.close();
  await database?.close();
  await schema?.drop();
});

describeRepositoryContracts('PostgreSQL', async () => {
  await schema.truncate();
  return {
    repositories: database.repositories,
    another: another.repositories,
    tamper: sqlAuditTampering(schema),
    holdAuditedWrite: (record) => holdAuditedWrite(schema, record),
    close: async () => {},
  };
});
