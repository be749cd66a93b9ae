import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '@uas/adapters-http/testing';
import { BACKENDS, startTestApplication, type Backend, type TestApplication } from '../support/test-application';
import { withApplicationDatabase } from '../support/token-forgery';

const vectors: { format: string; password: string; hash: string }[] = JSON.parse(
  readFileSync(new URL('../fixtures/password-hash-vectors.json', import.meta.url), 'utf8'),
);
const NDJSON = 'application/x-ndjson';
const ndjson = (records: object[]) => records.map((record) => `${JSON.stringify(record)}\n`).join('');

async function adminToken(t: TestApplication): Promise<string> {
  const response = await t.app.request('/v1/admin/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ data: { type: 'users', attributes: t.admin } }),
  });
  return (await response.json()).data.attributes.access_token;
}

async function importInto(t: TestApplication, body: string, query = '') {
  const response = await t.app.request(`/v1/admin/users/import${query}`, {
    method: 'POST',
    body,
    headers: { 'Content-Type': NDJSON, ...bearer(await adminToken(t)) },
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()).data.attributes;
}

async function exportFrom(
  t: TestApplication,
  query = '?with_password_hashes=true',
): Promise<Record<string, unknown>[]> {
  const response = await t.app.request(`/v1/admin/users/export${query}`, { headers: bearer(await adminToken(t)) });
  expect(response.status).toBe(200);
  const text = await response.text();
  return text === ''
    ? []
    : text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
}

const login = (t: TestApplication, email: string, password: string) =>
  t.app.request('/v1/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ data: { type: 'users', attributes: { email, password } } }),
  });

describe.each(BACKENDS)('user import and export over HTTP on %s', { timeout: 60_000 }, (backend) => {
  let t: TestApplication;
  beforeAll(async () => {
    t = await startTestApplication(backend);
  });
  afterAll(() => t?.close());

  it('users imported with every foreign hash format log in with their original password; the hash then becomes bcrypt', async () => {
    const records = vectors.map((vector, i) => ({
      email: `vector${i}@example.com`,
      password_hash: vector.hash,
      metadata: { vector: i },
    }));
    expect(await importInto(t, ndjson(records))).toMatchObject({ created: vectors.length, rejected: 0 });
    for (const [i, vector] of vectors.entries()) {
      expect((await login(t, `vector${i}@example.com`, vector.password)).status, vector.format).toBe(200);
    }
    const stored = await withApplicationDatabase(t, (database) => database.repositories.imports.exportPage(null, 1000));
    expect(
      stored.filter((user) => user.email.startsWith('vector')).every((user) => user.passwordHash.startsWith('$2b$04$')),
    ).toBe(true);
    expect(JSON.stringify(await exportFrom(t, ''))).not.toMatch(/password_hash|\$2b\$|argon2/);
  });

  it('concurrent imports of the same records create each user once, over rounds', async () => {
    const rounds = 3;
    const racers = 4;
    let lost = 0;
    for (let round = 0; round < rounds; round += 1) {
      const records = Array.from({ length: 30 }, (_, i) => ({
        email: `race${round}-${i}@example.com`,
        password_hash: vectors[0]!.hash,
      }));
      const reports = await Promise.all(
        Array.from({ length: racers }, () => importInto(t, ndjson(records), '?on_conflict=skip')),
      );
      const created = reports.reduce((sum, report) => sum + report.created, 0);
      const skipped = reports.reduce((sum, report) => sum + report.skipped, 0);
      const stored = (await exportFrom(t, `?search[email]=race${round}-`)).length;
      if (created !== records.length || skipped !== records.length * (racers - 1) || stored !== records.length)
        lost += 1;
    }
    expect(lost).toBe(0);
  });
});

describe('moving every user from SQLite to PostgreSQL and back over HTTP', { timeout: 120_000 }, () => {
  const apps: Partial<Record<Backend | 'sqliteAgain', TestApplication>> = {};
  beforeAll(async () => {
    [apps.sqlite, apps.postgres, apps.sqliteAgain] = await Promise.all([
      startTestApplication('sqlite'),
      startTestApplication('postgres'),
      startTestApplication('sqlite'),
    ]);
  });
  afterAll(async () => {
    for (const app of Object.values(apps)) await app?.close();
  });

  it('reproduces every user exactly: ids, timestamps, metadata, app, active and password hashes', async () => {
    const source = apps.sqlite!;
    const token = await adminToken(source);
    for (const [i, attributes] of [
      {
        name: 'Żaneta 🐢',
        metadata: { nested: { list: [1, 'two', null, true], b: 2, a: 1 } },
        app: { roles: ['editor'] },
      },
      { name: 'Inactive', active: 0 },
      { name: 'Plain' },
    ].entries()) {
      const response = await source.app.request('/v1/admin/users', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...bearer(token) },
        body: JSON.stringify({
          data: {
            type: 'users',
            attributes: { email: `person${i}@example.com`, password: 'original-password', ...attributes },
          },
        }),
      });
      expect(response.status).toBe(201);
      source.clock.advance(1);
    }
    await importInto(
      source,
      ndjson([
        {
          email: 'argon@example.com',
          password_hash: vectors.find((v) => v.format === 'argon2id')!.hash,
          created: '2019-05-06T07:08:09.010Z',
        },
      ]),
    );

    const original = await exportFrom(source);
    expect(original).toHaveLength(4);
    expect(await importInto(apps.postgres!, ndjson(original), '?on_conflict=fail')).toMatchObject({
      created: 4,
      rejected: 0,
      failure: null,
    });
    expect(await exportFrom(apps.postgres!)).toEqual(original);
    expect((await login(apps.postgres!, 'person0@example.com', 'original-password')).status).toBe(200);

    const fromPostgres = await exportFrom(apps.postgres!);
    expect(await importInto(apps.sqliteAgain!, ndjson(fromPostgres), '?on_conflict=fail')).toMatchObject({
      created: 4,
    });
    const back = await exportFrom(apps.sqliteAgain!);
    // The login on PostgreSQL rehashed nothing (it was bcrypt at cost 4 already), so all three agree.
    expect(back).toEqual(original);
    expect(
      (await login(apps.sqliteAgain!, 'argon@example.com', vectors.find((v) => v.format === 'argon2id')!.password))
        .status,
    ).toBe(200);
  });
});
