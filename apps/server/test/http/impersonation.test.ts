import { beforeAll, describe, expect, it } from 'vitest';
import { usersDocument } from '@uas/adapters-http/testing';
import type { AuditEventListDocument, SessionListDocument, UserDocument } from '@uas/client';
import type { AdminClient } from '../support/admin-client';
import { ROUNDS, rounds, tally } from '../support/race-rounds';
import { insertAdmin } from '../support/second-admin';
import { withApplicationDatabase } from '../support/token-forgery';
import { BACKENDS } from '../support/test-application';
import { twoInstances } from '../support/two-instances';
import { claimsOf } from '../support/user-client';
import { USER_PASSWORD } from '../support/wire';

const REASON = 'Ticket 4711: cannot find the export button';

interface Impersonation {
  sessionId: string;
  accessToken: string;
  expires: string;
}

/**
 * Impersonation on the real application, on each database, over two instances sharing it (each
 * its own connections and caches, as two processes behind a load balancer).
 */
describe.each(BACKENDS)('impersonation on %s, across two instances', (backend) => {
  const two = twoInstances(backend, { IMPERSONATION: 'on', ACCESS_TOKEN_TTL_SECONDS: '3600' });
  let adminId: string;
  beforeAll(async () => {
    adminId = (await two.clientA.adminSession()).id;
  });

  async function impersonate(client: AdminClient, userId: string): Promise<Impersonation> {
    const response = await client.send(
      'POST',
      `/v1/admin/users/${userId}/impersonation`,
      { reason: REASON },
      await client.adminToken(),
    );
    expect(response.status, await response.clone().text()).toBe(201);
    const { data } = (await response.json()) as {
      data: { id: string; attributes: { access_token: string; expires: string } };
    };
    return { sessionId: data.id, accessToken: data.attributes.access_token, expires: data.attributes.expires };
  }

  const me = (client: AdminClient, token: string) => client.get('/v1/users/me', token);

  it('answers a signed user token of at most 15 minutes (however long user tokens live) whose act names the admin, and no refresh token', async () => {
    const user = await two.clientA.createUser({ email: `claims-${backend}@example.com` });
    const started = await impersonate(two.clientA, user.id);
    const claims = claimsOf(started.accessToken);
    expect(claims).toMatchObject({ sub: user.id, sid: started.sessionId, act: { sub: adminId } });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(15 * 60);
    expect(Math.floor(new Date(started.expires).getTime() / 1000)).toBe(claims.exp);
    // It opens the user's routes on the other instance too; it is no refresh token.
    expect((await me(two.clientB, started.accessToken)).status).toBe(200);
    expect((await two.clientB.refresh(started.accessToken, '/v1/refresh')).status).toBe(401);
    // The user did not sign in: their last login stays as it was.
    const stored = await two.clientA.get(`/v1/admin/users/${user.id}`, await two.clientA.adminToken());
    expect(((await stored.json()) as UserDocument).data.attributes.last_login).toBeNull();
  });

  it("shows the session in the user's own list as impersonated by the admin; the token cannot touch the account's credentials; what it does is the admin's in the audit trail", async () => {
    const user = await two.clientA.createUser({ email: `self-${backend}@example.com` });
    const own = await two.clientA.userSession(user.attributes.email);
    const started = await impersonate(two.clientA, user.id);
    const listed = (await (
      await two.clientB.get('/v1/users/me/sessions', own.accessToken)
    ).json()) as SessionListDocument;
    const byId = new Map(listed.data.map((session) => [session.id, session.attributes.impersonated_by]));
    expect(byId.get(started.sessionId)).toBe(adminId);
    expect(byId.get(claimsOf(own.accessToken).sid as string)).toBeNull();

    const refusals = [
      ['PATCH', '/v1/users/me', usersDocument({ password: 'taken-over-1', current_password: USER_PASSWORD })],
      ['POST', '/v1/users/me/email', { email: `mallory-${backend}@example.com`, current_password: USER_PASSWORD }],
      ['POST', '/v1/users/me/factors', { data: { type: 'factors', attributes: { kind: 'totp' } } }],
      ['POST', '/v1/users/me/recovery-codes', {}],
    ] as const;
    for (const [method, path, body] of refusals) {
      const response = await two.clientB.send(method, path, body, started.accessToken);
      expect(response.status, `${method} ${path}`).toBe(403);
    }
    expect((await two.clientA.userSession(user.attributes.email)).accessToken).toBeTruthy();

    const renamed = await two.clientB.send(
      'PATCH',
      '/v1/users/me',
      usersDocument({ name: 'Fixed' }),
      started.accessToken,
    );
    expect(renamed.status).toBe(200);
    const events = await two.clientA.get(
      `/v1/admin/audit-events?filter[target]=${user.id}`,
      await two.clientA.adminToken(),
    );
    const byAction = new Map(
      ((await events.json()) as AuditEventListDocument).data.map((event) => [
        event.attributes.action,
        event.attributes,
      ]),
    );
    expect(byAction.get('user.impersonated')).toMatchObject({
      actor: { type: 'admin', id: adminId },
      changes: { session: { before: null, after: started.sessionId }, reason: { before: null, after: REASON } },
    });
    expect(byAction.get('user.updated')?.actor).toEqual({ type: 'admin', id: adminId });
  });

  it('a support agent demoted to auditor: their impersonation token stops at its next request, on either instance', async () => {
    const support = await insertAdmin(two.a, 'support', { email: `support-${backend}@example.com` });
    const token = (await two.clientA.adminSession({}, support)).accessToken;
    const user = await two.clientA.createUser({ email: `demoted-${backend}@example.com` });
    const response = await two.clientA.send(
      'POST',
      `/v1/admin/users/${user.id}/impersonation`,
      { reason: REASON },
      token,
    );
    expect(response.status).toBe(201);
    const { data } = (await response.json()) as { data: { attributes: { access_token: string } } };
    expect((await me(two.clientB, data.attributes.access_token)).status).toBe(200);
    await withApplicationDatabase(two.a, async (database) => {
      const admin = await database.repositories.admins.findById(support.id);
      await database.repositories.admins.update({ ...admin!, role: 'auditor', updated: two.a.clock.now() });
    });
    expect((await me(two.clientB, data.attributes.access_token)).status).toBe(401);
    expect((await me(two.clientA, data.attributes.access_token)).status).toBe(401);
  });

  /** The three ways a session ends, each sent to the other instance than the one that started it. */
  const ENDINGS: [string, (userId: string, own: string, started: Impersonation) => Promise<Response>][] = [
    [
      'the user ends it',
      (_userId, own, { sessionId }) => two.clientB.delete(`/v1/users/me/sessions/${sessionId}`, own),
    ],
    [
      'an admin ends it',
      async (userId, _own, { sessionId }) =>
        two.clientB.delete(`/v1/admin/users/${userId}/sessions/${sessionId}`, await two.clientB.adminToken()),
    ],
    [
      "an admin ends all the user's sessions",
      async (userId) => two.clientB.delete(`/v1/admin/users/${userId}/sessions`, await two.clientB.adminToken()),
    ],
  ];

  it(`the token used while its session ends: once the end has answered, no request with it succeeds, on either instance, ${ROUNDS} rounds`, async () => {
    const outcomes = await rounds(async (index) => {
      const [ending, end] = ENDINGS[index % ENDINGS.length]!;
      const user = await two.clientA.createUser({ email: `race-${backend}-${index}@example.com` });
      const own = (await two.clientA.userSession(user.attributes.email)).accessToken;
      const started = await impersonate(two.clientA, user.id);
      let endedAt: number | undefined;
      /** Uses the token on `client` until two requests sent after the end answered have come back. */
      const useToken = async (client: AdminClient) => {
        const uses: { afterEnd: boolean; status: number }[] = [];
        for (let sent = 0; uses.filter((use) => use.afterEnd).length < 2; sent += 1) {
          const afterEnd = endedAt !== undefined;
          // Reads and writes alike: a rename is what the token may do.
          const response =
            sent % 2 === 0
              ? await me(client, started.accessToken)
              : await client.send('PATCH', '/v1/users/me', usersDocument({ name: `n${sent}` }), started.accessToken);
          uses.push({ afterEnd, status: response.status });
        }
        return uses;
      };
      const [ended, ...uses] = await Promise.all([
        new Promise((resolve) => setTimeout(resolve, index % 5)).then(async () => {
          const response = await end(user.id, own, started);
          endedAt = Date.now();
          return response;
        }),
        useToken(two.clientA),
        useToken(two.clientB),
      ]);
      expect(ended.status, ending).toBe(204);
      const all = uses.flat();
      return {
        violations: all.filter((use) => use.afterEnd && use.status !== 401).length,
        before: all.filter((use) => !use.afterEnd).map((use) => use.status),
        after: all.filter((use) => use.afterEnd).map((use) => use.status),
      };
    });
    const violations = outcomes.reduce((sum, outcome) => sum + outcome.violations, 0);
    console.info(`impersonation token used while its session ends (${backend}):`, {
      rounds: outcomes.length,
      'answers before the end answered': tally(outcomes.flatMap((outcome) => outcome.before)),
      'answers after the end answered': tally(outcomes.flatMap((outcome) => outcome.after)),
      violations,
    });
    expect(violations).toBe(0);
    for (const client of [two.clientA, two.clientB]) client.expectCleanLogs();
  }, 240_000);
});
