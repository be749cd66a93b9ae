import { bearer, fromAddress, jsonInit, usersDocument } from '@uas/adapters-http/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Application } from '../../src/application';
import { secondInstance } from '../invitations/invitation-support';
import { AdminClient } from '../support/admin-client';
import { BACKENDS, startTestApplication, type TestApplication } from '../support/test-application';

/** Rounds per page and database, as the issue asks of every single-use thing. */
const ROUNDS = 50;
/** Rounds in flight at once: enough to keep the database busy, few enough for two shared cores. */
const ROUNDS_AT_ONCE = 5;
/** What a mail scanner sends each link before its reader does: GETs, on both instances. */
const SCANS = 3;
/** Form posts of one link at once, half to each instance (a double click, a retried request). */
const POSTS_AT_ONCE = 4;
const PASSWORD = 'page-password-1';

/**
 * One way to send a request to one instance, from a client address of its own: each round is its
 * own client, as each reader of a mailed link is, so the per-address send limit is not what the
 * rounds measure.
 */
type Send = (path: string, init?: RequestInit) => Promise<Response>;
const sendTo =
  (app: Application['app'], address: string): Send =>
  (path, init) =>
    Promise.resolve(app.request(path, init, fromAddress(address)));

const formPost = (token: string, choosesPassword: boolean): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin' },
  body: new URLSearchParams(choosesPassword ? { token, password: PASSWORD, confirmation: PASSWORD } : { token }),
});

/**
 * The id of the one message to `email`, looked for on every page of the outbox (the test clock
 * stands still, so the order tells nothing), waiting a while for a message the request worker
 * writes off the request path.
 */
async function messageTo(send: Send, adminToken: string, email: string): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    for (let number = 1; ; number += 1) {
      const list = await send(`/v1/admin/mail?page[size]=100&page[number]=${number}`, { headers: bearer(adminToken) });
      const messages = ((await list.json()) as { data: { id: string; attributes: { recipient: string } }[] }).data;
      const message = messages.find(({ attributes }) => attributes.recipient === email);
      if (message) return message.id;
      if (messages.length === 0) break;
    }
    if (Date.now() > deadline) throw new Error(`no message to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The token of the link mailed to `email`, read through GET /v1/admin/mail/{id}. */
async function tokenMailedTo(send: Send, adminToken: string, email: string, page: string): Promise<string> {
  const read = await send(`/v1/admin/mail/${await messageTo(send, adminToken, email)}`, {
    headers: bearer(adminToken),
  });
  const { text } = ((await read.json()) as { data: { attributes: { body: { text: string } } } }).data.attributes.body;
  const link = new URL(/https?:\/\/\S+\/account\/[a-z-]+\?token=[\w-]+/.exec(text)?.[0] ?? 'invalid:');
  expect(link.pathname).toBe(`/account/${page}`);
  return link.searchParams.get('token') ?? '';
}

interface PageRace {
  page: string;
  choosesPassword: boolean;
  /** Makes a fresh link of the page's kind through the real flow, for round `index`; answers its token. */
  mail(send: Send, adminToken: string, index: number): Promise<string>;
}

const RACES: readonly PageRace[] = [
  {
    page: 'verify',
    choosesPassword: false,
    async mail(send, adminToken, index) {
      const email = `verify-${index}-${crypto.randomUUID()}@example.com`;
      const signUp = await send('/v1/signup', jsonInit('POST', usersDocument({ email, password: PASSWORD })));
      expect(signUp.status).toBe(202);
      return tokenMailedTo(send, adminToken, email, 'verify');
    },
  },
  {
    page: 'confirm-email',
    choosesPassword: false,
    async mail(send, adminToken, index) {
      const email = `change-${index}-${crypto.randomUUID()}@example.com`;
      const created = await send(
        '/v1/admin/users',
        jsonInit('POST', usersDocument({ email, password: PASSWORD }), bearer(adminToken)),
      );
      expect(created.status).toBe(201);
      const login = await send('/v1/login', jsonInit('POST', usersDocument({ email, password: PASSWORD })));
      const { data } = (await login.json()) as { data: { attributes: { access_token: string } } };
      const newEmail = `new-${email}`;
      const change = await send(
        '/v1/users/me/email',
        jsonInit('POST', { email: newEmail, current_password: PASSWORD }, bearer(data.attributes.access_token)),
      );
      expect(change.status).toBe(202);
      return tokenMailedTo(send, adminToken, newEmail, 'confirm-email');
    },
  },
  {
    page: 'reset-password',
    choosesPassword: true,
    async mail(send, adminToken, index) {
      const email = `reset-${index}-${crypto.randomUUID()}@example.com`;
      const created = await send(
        '/v1/admin/users',
        jsonInit('POST', usersDocument({ email, password: PASSWORD }), bearer(adminToken)),
      );
      expect(created.status).toBe(201);
      expect((await send('/v1/recover', jsonInit('POST', { email }))).status).toBe(202);
      return tokenMailedTo(send, adminToken, email, 'reset-password');
    },
  },
  {
    page: 'accept-invitation',
    choosesPassword: true,
    async mail(send, adminToken, index) {
      const email = `invitee-${index}-${crypto.randomUUID()}@example.com`;
      const document = { data: { type: 'invitations', attributes: { email } } };
      const invite = await send('/v1/admin/invitations', jsonInit('POST', document, bearer(adminToken)));
      expect(invite.status).toBe(201);
      return tokenMailedTo(send, adminToken, email, 'accept-invitation');
    },
  },
];

/**
 * Two instances of the real application over one database (one SQLite file, one PostgreSQL
 * schema). Every round: a fresh mailed link, opened by a "scanner" on both instances, then its
 * form posted several times at once across both. The GETs must consume nothing and the posts
 * exactly once.
 */
describe.each(BACKENDS)('the account pages over two instances on %s', (backend) => {
  let t: TestApplication;
  let other: Application;
  let adminToken: string;
  const otherLogs: string[] = [];

  beforeAll(async () => {
    t = await startTestApplication(backend);
    other = await secondInstance(t, otherLogs);
    adminToken = await new AdminClient(t).adminToken();
  }, 60_000);
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  it.each(RACES)(
    `/account/$page: ${SCANS} scanner GETs leave the link usable; of ${POSTS_AT_ONCE} posts at once exactly one acts, ${ROUNDS} rounds`,
    { timeout: 240_000 },
    async ({ page, choosesPassword, mail }) => {
      const tokens: string[] = [];
      const outcomes: string[] = [];
      for (let start = 0; start < ROUNDS; start += ROUNDS_AT_ONCE) {
        const batch = Array.from({ length: ROUNDS_AT_ONCE }, (_, i) => start + i);
        const results = await Promise.all(
          batch.map(async (index) => {
            const address = `10.${backend === 'sqlite' ? 1 : 2}.${Math.floor(index / 250)}.${(index % 250) + 1}`;
            const [a, b] = [sendTo(t.app, address), sendTo(other.app, address)];
            const token = await mail(a, adminToken, index);
            tokens.push(token);
            const scans = await Promise.all(
              Array.from({ length: SCANS }, (_, n) => (n % 2 ? b : a)(`/account/${page}?token=${token}`)),
            );
            const posts = await Promise.all(
              Array.from({ length: POSTS_AT_ONCE }, (_, n) =>
                (n % 2 ? b : a)(`/account/${page}`, formPost(token, choosesPassword)),
              ),
            );
            const acted = posts.filter((response) => response.status === 200).length;
            const refused = posts.filter((response) => response.status === 400).length;
            return `scans ${scans.map((response) => response.status).join('/')}; ${acted} acted, ${refused} invalid`;
          }),
        );
        outcomes.push(...results);
      }
      const expected = `scans ${Array(SCANS).fill(200).join('/')}; 1 acted, ${POSTS_AT_ONCE - 1} invalid`;
      const tally = Object.fromEntries([...new Set(outcomes)].map((o) => [o, outcomes.filter((x) => x === o).length]));
      expect(tally).toEqual({ [expected]: ROUNDS });

      const logs = [...t.logs, ...otherLogs].join('\n');
      expect(tokens.filter((token) => logs.includes(token))).toEqual([]);
    },
  );
});
