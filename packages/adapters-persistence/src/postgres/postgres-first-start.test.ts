import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../database';
import { parseDatabaseUrl } from '../database-url';
import { createTestPostgresSchema, type TestPostgresSchema } from '../testing/postgres-test-database';

/**
 * Instances started together on a database that has no schema yet (the first deployment, with
 * DATABASE_SCHEMA set): one creates the schema and migrates, the others wait for it.
 */
describe('PostgreSQL: instances starting at once before the schema exists', () => {
  let schema: TestPostgresSchema;

  beforeAll(async () => {
    // A role that may create the schema, and no schema yet.
    schema = await createTestPostgresSchema({ ownRole: true });
    const admin = postgres(schema.serverUrl, { max: 1, onnotice: () => {} });
    await admin`drop schema ${admin(schema.schema)}`;
    await admin.end();
  });
  afterAll(async () => {
    await schema?.drop();
  });

  it('take turns: every one of them starts, and the tables are made once', async () => {
    const location = parseDatabaseUrl(schema.url);
    const instances = await Promise.all(Array.from({ length: 4 }, () => openDatabase(location, schema.options)));
    try {
      const started = await Promise.allSettled(instances.map((database) => database.migrate()));
      expect(started.filter(({ status }) => status === 'rejected')).toEqual([]);
      expect(await instances[0]!.migrationStatus()).toMatchObject({ pending: [] });
    } finally {
      await Promise.all(instances.map((database) => database.close()));
    }
  });
});
