import { count } from 'drizzle-orm';
import { drizzle as postgresDrizzle } from 'drizzle-orm/postgres-js';
import { drizzle as sqliteDrizzle } from 'drizzle-orm/better-sqlite3';
import postgres from 'postgres';
import { auditRecord, SYSTEM, type Repositories } from '@uas/domain';
import { sampleWebhook } from '@uas/domain/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './database';
import { parseDatabaseUrl } from './database-url';
import * as pg from './postgres/postgres-schema';
import * as lite from './sqlite/sqlite-schema';
import { openSqliteConnection } from './sqlite/sqlite-driver';
import { createTestPostgresSchema } from './testing/postgres-test-database';
import { createTemporarySqliteFile } from './testing/sqlite-test-database';

const T0 = new Date('2027-06-01T10:00:00.000Z');

/** A delivery of `webhookId`'s, as the dispatcher writes one. */
const delivery = (webhookId: string, seq: number) => ({
  id: `msg_${webhookId}_${seq}`,
  webhookId,
  seq,
  eventType: 'user.created' as const,
  payload: '{}',
  status: 'pending' as const,
  nextAttempt: T0,
  created: T0,
  updated: T0,
});

/** Each dialect's store, and a connection of its own that writes and counts deliveries behind the repositories' back. */
interface Store {
  repositories: Repositories;
  insertDeliveries(rows: ReturnType<typeof delivery>[]): Promise<void>;
  deliveries(): Promise<number>;
  close(): Promise<void>;
}

async function sqliteStore(): Promise<Store> {
  const file = createTemporarySqliteFile();
  const database = await openDatabase(parseDatabaseUrl(`sqlite:${file.path}`));
  await database.migrate();
  const client = openSqliteConnection(file.path);
  const db = sqliteDrizzle(client);
  return {
    repositories: database.repositories,
    insertDeliveries: async (rows) => void db.insert(lite.webhookDeliveries).values(rows).run(),
    deliveries: async () => db.select({ n: count() }).from(lite.webhookDeliveries).get()?.n ?? -1,
    close: async () => {
      client.close();
      await database.close();
      file.remove();
    },
  };
}

async function postgresStore(): Promise<Store> {
  const schema = await createTestPostgresSchema();
  const database = await openDatabase(parseDatabaseUrl(schema.url), schema.options);
  await database.migrate();
  const client = postgres(schema.url, { max: 1, onnotice: () => {}, connection: { search_path: schema.schema } });
  const db = postgresDrizzle(client);
  return {
    repositories: database.repositories,
    insertDeliveries: async (rows) => void (await db.insert(pg.webhookDeliveries).values(rows)),
    deliveries: async () => (await db.select({ n: count() }).from(pg.webhookDeliveries))[0]?.n ?? -1,
    close: async () => {
      await client.end({ timeout: 5 });
      await database.close();
      await schema.drop();
    },
  };
}

describe.each([
  ['SQLite', sqliteStore],
  ['PostgreSQL', postgresStore],
])('webhook deliveries on %s', (_backend, open) => {
  let store: Store | undefined;
  afterEach(async () => store?.close());

  it('go with their endpoint when it is deleted, and only its', async () => {
    store = await open();
    const [gone, kept] = [sampleWebhook(), sampleWebhook()];
    for (const webhook of [gone, kept]) {
      await store.repositories.webhooks.create(
        webhook,
        auditRecord(`${webhook.id}-e`, T0, SYSTEM, 'webhook.created', null),
      );
    }
    await store.insertDeliveries([delivery(gone.id, 1), delivery(gone.id, 2), delivery(kept.id, 1)]);
    expect(await store.deliveries()).toBe(3);
    await store.repositories.webhooks.delete(gone.id, () =>
      auditRecord(`${gone.id}-d`, T0, SYSTEM, 'webhook.deleted', null),
    );
    expect(await store.deliveries()).toBe(1);
  });
});
