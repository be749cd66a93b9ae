import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, jsonInit, usersDocument } from '@uas/adapters-http/testing';
import { JsonLogger } from '../../src/adapters/json-logger';
import { createApplication, type Application } from '../../src/application';
import { loadConfig } from '../../src/config';
import { loginAsAdmin, readAdminKeyFile } from '../support/admin-api';
import { BACKENDS, testDatabaseEnv } from '../support/test-application';
import { eventualValue } from '../support/eventually';
import { storedData } from '../support/stored-data';

/** Rounds of the reset race, as the issue asks: one token posted to both instances at once. */
const ROUNDS = 50;
const NEW_PASSWORD = 'a new long password';

describe.each(BACKENDS)('password recovery through the real application on %s, two instances', (backend) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** Two applications over one fresh database, as two instances behind a load balancer. */
  async function twoInstances() {
    const dir = await mkdtemp(join(tmpdir(), 'uas-recovery-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const database = await testDatabaseEnv(backend, dir);
    cleanups.push(() => database.remove());
    const config = loadConfig({
      ...database.env,
      ADMIN_KEY_PATH: join(dir, 'admin.key'),
      BCRYPT_COST: '4',
      // Every in-process request comes from one address; the per-address limit is tested elsewhere.
      MAIL_REQUESTS_PER_MINUTE: '100000',
      PUBLIC_URL: 'https://id.example.com/',
    });
    const logs: string[] = [];
    const logger = new JsonLogger('debug', (line) => logs.push(line));
    const instances: Application[] = [];
    for (let n = 0; n < 2; n += 1) {
      const application = await createApplication(config, logger);
      cleanups.push(() => application.close());
      instances.push(application);
    }
    const [a, b] = instances.map(({ app }) => ({
      fetch: async (path: string, init?: RequestInit) => app.request(path, init),
    }));
    const admin = bearer((await loginAsAdmin(a!, await readAdminKeyFile(config.adminKeyPath))).accessToken);
    return { a: a!, b: b!, admin, logs, config };
  }

  type Instance = Awaited<ReturnType<typeof twoInstances>>['a'];

  async function createUser(on: Instance, admin: Record<string, string>, email: string): Promise<string> {
    const response = await on.fetch(
      '/v1/admin/users',
      jsonInit('POST', usersDocument({ email, password: 'the old password' }), admin),
    );
    expect(response.status).toBe(201);
    return ((await response.json()) as { data: { id: string } }).data.id;
  }

  /** The link of the recovery message to `email`, read from the outbox as an admin would, once it is there. */
  async function mailedLink(on: Instance, admin: Record<string, string>, email: string): Promise<string> {
    const id = await eventualValue(async () => {
      const list = (await (await on.fetch('/v1/admin/mail?page[size]=100', { headers: admin })).json()) as {
        data: { id: string; attributes: { kind: string; recipient: string } }[];
      };
      return list.data.find((m) => m.attributes.kind === 'recovery' && m.attributes.recipient === email)?.id;
    });
    const message = (await (await on.fetch(`/v1/admin/mail/${id}`, { headers: admin })).json()) as {
      data: { attributes: { body: { text: string } } };
    };
    return message.data.attributes.body.text.match(
      /https:\/\/id\.example\.com\/account\/reset-password\?token=[\w-]+/,
    )![0];
  }

  const recover = (on: Instance, email: string) => on.fetch('/v1/recover', jsonInit('POST', { email }));
  const reset = (on: Instance, token: string, password = NEW_PASSWORD) =>
    on.fetch('/v1/reset-password', jsonInit('POST', { token, password }));

  it(`known and unknown addresses answer alike; of one reset token posted to both instances at once exactly one wins, ${ROUNDS} rounds; no token in the database, a log line or an audit event`, {
    timeout: 180_000,
  }, async () => {
    const { a, b, admin, logs, config } = await twoInstances();

    // Known and unknown: the same status and body.
    await createUser(a, admin, 'known@example.com');
    const known = await recover(a, 'known@example.com');
    const unknown = await recover(b, 'unknown@example.com');
    expect([known.status, unknown.status]).toEqual([202, 202]);
    expect(await known.text()).toBe(await unknown.text());

    // One user per round (a second recovery message to one address within a minute is skipped).
    const emails = Array.from({ length: ROUNDS }, (_, n) => `round${n}@example.com`);
    for (const email of emails) await createUser(a, admin, email);
    const requested = await Promise.all(emails.map((email, n) => recover(n % 2 ? b : a, email)));
    expect(requested.map((response) => response.status)).toEqual(emails.map(() => 202));
    const tokens: string[] = [];
    const outcomes: string[] = [];
    for (const email of emails) {
      const token = new URL(await mailedLink(b, admin, email)).searchParams.get('token')!;
      tokens.push(token);
      const statuses = (await Promise.all([reset(a, token), reset(b, token)])).map((response) => response.status);
      outcomes.push(statuses.sort().join(' '));
    }
    const tally = Object.fromEntries([...new Set(outcomes)].map((o) => [o, outcomes.filter((x) => x === o).length]));
    expect(tally).toEqual({ '204 400': ROUNDS });

    // The new password works; the old one does not; a used token stays refused.
    const login = (password: string) =>
      a.fetch('/v1/login', jsonInit('POST', usersDocument({ email: emails[0], password })));
    expect((await login(NEW_PASSWORD)).status).toBe(200);
    expect((await login('the old password')).status).toBe(401);
    const again = await reset(b, tokens[0]!);
    expect(again.status).toBe(400);
    expect(((await again.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe('invalid_token');

    // Each completed reset is audited, each request too; no event, row or log line holds a token.
    const events = async (action: string) => {
      const path = `/v1/admin/audit-events?filter[action]=${action}&page[size]=100`;
      const text = await (await a.fetch(path, { headers: admin })).text();
      return { text, total: (JSON.parse(text) as { meta: { total: number } }).meta.total };
    };
    const completed = await events('user.recovery_completed');
    const requestedEvents = await events('user.recovery_requested');
    expect([completed.total, requestedEvents.total]).toEqual([ROUNDS, ROUNDS + 1]);
    const audit = completed.text + requestedEvents.text;
    const stored = await storedData(config);
    expect(stored).toContain('round0@example.com'); // the search reads the stored rows
    const logged = logs.join('\n');
    const leaks = tokens.filter((token) => stored.includes(token) || logged.includes(token) || audit.includes(token));
    expect(leaks).toEqual([]);
    expect(logged).not.toContain(NEW_PASSWORD);
    expect(stored).not.toContain('id.example.com/account/reset-password');
    expect(logged).not.toContain('unknown@example.com');
  });
});
