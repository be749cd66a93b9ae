import { beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';
import { bearer } from '../testing/requests';
import { IMPORT_MAX_BODY_BYTES, IMPORT_MAX_RECORDS } from './admin-user-transfer.routes';

const NDJSON = 'application/x-ndjson';
const lines = (...records: unknown[]) => records.map((record) => `${JSON.stringify(record)}\n`).join('');
const PASSWORD = 'imported-password';

describe('POST /v1/admin/users/import and GET /v1/admin/users/export', () => {
  let t: TestApp;
  let token: string;
  beforeEach(async () => {
    t = await createTestApp();
    token = (await t.loginAdmin()).accessToken;
  });
  const importing = (body: BodyInit, query = '', headers: Record<string, string> = {}) =>
    t.app.request(`/v1/admin/users/import${query}`, {
      method: 'POST',
      body,
      headers: { 'Content-Type': NDJSON, ...bearer(token), ...headers },
    });
  const exporting = (query = '') => t.app.request(`/v1/admin/users/export${query}`, { headers: bearer(token) });

  it('imports NDJSON and answers the report: counts, and every bad line with its reason', async () => {
    const body = `${lines({ email: 'a@example.com', password: PASSWORD }, { email: 'bad', password: PASSWORD })}{oops\n${lines({ email: 'b@example.com', password_hash: `legacy:${PASSWORD}` })}`;
    const response = await importing(body);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      data: {
        type: 'user-imports',
        attributes: {
          dry_run: false,
          created: 2,
          created_without_password: 0,
          updated: 0,
          skipped: 0,
          rejected: 2,
          rejections: [
            { line: 2, reason: 'email must be a valid email address' },
            { line: 3, reason: 'is not valid JSON' },
          ],
          failure: null,
        },
      },
    });
    expect(text).not.toContain(PASSWORD);
    expect(t.logger.text()).not.toContain(PASSWORD);
    expect((await t.loginUser('b@example.com', PASSWORD)).response.status).toBe(200);
  });

  it('a dry run reports and writes nothing; on_conflict=fail reports the stopping line', async () => {
    await t.createUser({ email: 'taken@example.com' });
    const body = lines(
      { email: 'new@example.com', password: PASSWORD },
      { email: 'taken@example.com', password: PASSWORD },
    );
    const dry = await (await importing(body, '?dry_run=true&on_conflict=fail')).json();
    expect(dry.data.attributes).toMatchObject({ dry_run: true, created: 1, rejected: 1, rejections: [{ line: 2 }] });
    expect(await t.repositories.users.findByEmail('new@example.com')).toBeNull();
    const failed = await (await importing(body, '?on_conflict=fail')).json();
    expect(failed.data.attributes).toMatchObject({
      created: 0,
      failure: { line: 2, reason: expect.stringMatching(/exists already/) },
    });
    expect(await t.repositories.users.findByEmail('new@example.com')).toBeNull();
  });

  it.each([
    ['no token', () => ({ headers: { 'Content-Type': NDJSON } }), 401],
    ['a JSON body', () => ({ headers: { 'Content-Type': 'application/json', ...bearer(token) } }), 415],
    ['an unknown on_conflict', () => ({ query: '?on_conflict=merge' }), 400],
    ['dry_run given twice', () => ({ query: '?dry_run=true&dry_run=false' }), 400],
    [
      'a declared length over the limit',
      () => ({ headers: { 'Content-Length': String(IMPORT_MAX_BODY_BYTES + 1) } }),
      413,
    ],
  ])('refuses an import with %s, writing nothing', async (_, make, status) => {
    const { headers, query } = make() as { headers?: Record<string, string>; query?: string };
    const body = lines({ email: 'x@example.com', password: PASSWORD });
    const response = headers?.['Content-Type']
      ? await t.app.request(`/v1/admin/users/import${query ?? ''}`, { method: 'POST', body, headers })
      : await importing(body, query ?? '', headers ?? {});
    expect(response.status).toBe(status);
    expect((await response.json()).errors[0]).toMatchObject({ status: String(status) });
    expect(await t.repositories.users.findByEmail('x@example.com')).toBeNull();
  });

  it('a user token may neither import nor export', async () => {
    await t.createUser({ email: 'u@example.com', password: 'user-password-1' });
    const userToken = (await t.loginUser('u@example.com', 'user-password-1')).accessToken;
    const imported = await t.app.request('/v1/admin/users/import', {
      method: 'POST',
      body: '',
      headers: { 'Content-Type': NDJSON, ...bearer(userToken) },
    });
    expect(imported.status).toBe(403);
    expect((await t.app.request('/v1/admin/users/export', { headers: bearer(userToken) })).status).toBe(403);
  });

  it(`stops an import past ${IMPORT_MAX_RECORDS} records with 413`, async () => {
    const response = await importing('{}\n'.repeat(IMPORT_MAX_RECORDS + 1));
    expect(response.status).toBe(413);
    expect((await response.json()).errors[0].detail).toMatch(/more than 100000 records/);
  });

  it('exports streamed NDJSON as an attachment, with hashes only when asked, filtered by search[email]', async () => {
    const ada = await t.createUser({ email: 'ada@example.com', metadata: { a: 1 } });
    await t.createUser({ email: 'bob@example.com' });
    const response = await exporting();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(NDJSON);
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="users-\d{4}-\d{2}-\d{2}\.ndjson"$/,
    );
    const records = (await response.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records.map((record) => record.email)).toEqual(['ada@example.com', 'bob@example.com']);
    expect(records[0]).toEqual({
      id: ada.id,
      name: '',
      email: 'ada@example.com',
      metadata: { a: 1 },
      app: {},
      active: 1,
      email_verified: ada.created.toISOString(),
      created: ada.created.toISOString(),
      updated: ada.updated.toISOString(),
    });
    const withHashes = await (await exporting('?with_password_hashes=true&search[email]=ADA')).text();
    expect(JSON.parse(withHashes)).toMatchObject({ email: 'ada@example.com', password_hash: ada.passwordHash });
    expect((await exporting('?with_password_hashes=yes')).status).toBe(400);
  });

  it('an export without hashes imports elsewhere: the users, counted as without a password, none able to log in', async () => {
    await t.createUser({ email: 'ada@example.com', password: PASSWORD });
    const exported = await (await exporting()).text();
    const target = await createTestApp();
    const response = await target.app.request('/v1/admin/users/import', {
      method: 'POST',
      body: exported,
      headers: { 'Content-Type': NDJSON, ...bearer((await target.loginAdmin()).accessToken) },
    });
    expect((await response.json()).data.attributes).toMatchObject({
      created: 1,
      created_without_password: 1,
      rejected: 0,
    });
    const login = await target.loginUser('ada@example.com', PASSWORD);
    expect(login.response.status).toBe(401);
  });
});
