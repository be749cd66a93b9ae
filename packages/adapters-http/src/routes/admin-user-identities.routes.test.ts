import { auditRecord, NO_PASSWORD_HASH, type ExternalIdentity, type User } from '@uas/domain';
import type * as v from 'valibot';
import { beforeEach, describe, expect, it } from 'vitest';
import type { identityListDocumentSchema } from '../presenters/identity.presenter';
import { bearer, createTestApp, type TestApp } from '../testing';

type IdentityList = v.InferOutput<typeof identityListDocumentSchema>;

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const SYSTEM = {
  actor: { type: 'system', id: null },
  request: { requestId: null, clientAddress: null, userAgent: null },
} as const;

let t: TestApp;
let owner: Record<string, string>;
let providerId: string;

beforeEach(async () => {
  t = await createTestApp();
  owner = bearer((await t.loginAdmin()).accessToken);
  providerId = (
    await t.deps.identityProviders.create({ slug: 'github', kind: 'github', clientId: 'Iv1.abc', clientSecret: 's' })
  ).id;
});

const path = (userId: string, identityId?: string) =>
  `/v1/admin/users/${userId}/identities${identityId ? `/${identityId}` : ''}`;
const list = (userId: string, headers = owner) => t.app.request(path(userId), { headers });
const unlink = (userId: string, identityId: string, headers = owner) =>
  t.app.request(path(userId, identityId), { method: 'DELETE', headers });

async function link(user: User, subject: string): Promise<ExternalIdentity> {
  const now = t.clock.now();
  const identity: ExternalIdentity = {
    id: crypto.randomUUID(),
    userId: user.id,
    providerId,
    subject,
    email: user.email,
    emailVerified: true,
    created: now,
    lastSignIn: null,
  };
  const audit = auditRecord(crypto.randomUUID(), now, SYSTEM, 'user.identity_linked', { type: 'users', id: user.id });
  await t.repositories.externalIdentities.link(identity, audit);
  return identity;
}

describe('GET /v1/admin/users/{id}/identities', () => {
  it("lists the user's identities with their provider", async () => {
    const user = await t.createUser();
    const identity = await link(user, '583231');
    await link(await t.createUser(), '999');
    const response = await list(user.id);
    expect(response.status).toBe(200);
    expect((await response.json()) as IdentityList).toEqual({
      data: [
        {
          type: 'identities',
          id: identity.id,
          attributes: {
            provider: 'github',
            provider_kind: 'github',
            subject: '583231',
            email: user.email,
            email_verified: true,
            created: identity.created.toISOString(),
            last_sign_in: null,
          },
        },
      ],
      meta: { total: 1 },
    });
  });

  it('answers 404 for an unknown or malformed user', async () => {
    expect((await list(UNKNOWN)).status).toBe(404);
    expect((await list('nope')).status).toBe(404);
  });
});

describe('DELETE /v1/admin/users/{id}/identities/{identityId}', () => {
  it('unlinks with 204, audited with the admin as actor; then 404', async () => {
    const user = await t.createUser();
    const identity = await link(user, '583231');
    expect((await unlink(user.id, identity.id)).status).toBe(204);
    expect(((await (await list(user.id)).json()) as IdentityList).meta.total).toBe(0);
    const { data } = await (await t.app.request('/v1/admin/audit-events', { headers: owner })).json();
    expect(data[0].attributes).toMatchObject({
      action: 'user.identity_unlinked',
      actor: { type: 'admin', id: t.admin.id },
      target: { type: 'users', id: user.id },
      changes: { identity: { before: { provider: 'github', subject: '583231' }, after: null } },
    });
    expect((await unlink(user.id, identity.id)).status).toBe(404);
  });

  it("refuses the user's last way in with 409 last_sign_in_method, and another user's identity with 404", async () => {
    const user = await t.createUser();
    await t.repositories.users.update(user.id, (current) => ({ user: { ...current, passwordHash: NO_PASSWORD_HASH } }));
    const identity = await link(user, '583231');
    const refused = await unlink(user.id, identity.id);
    expect(refused.status).toBe(409);
    expect((await refused.json()).errors[0].code).toBe('last_sign_in_method');
    expect((await unlink((await t.createUser()).id, identity.id)).status).toBe(404);
    expect((await unlink(user.id, 'nope')).status).toBe(404);
    expect(((await (await list(user.id)).json()) as IdentityList).meta.total).toBe(1);
  });

  it('lets support and auditors read but not unlink; admins do both', async () => {
    const user = await t.createUser();
    const identity = await link(user, '583231');
    for (const role of ['support', 'auditor'] as const) {
      const headers = await t.adminWith(role);
      expect((await list(user.id, headers)).status).toBe(200);
      expect((await unlink(user.id, identity.id, headers)).status).toBe(403);
    }
    expect((await unlink(user.id, identity.id, await t.adminWith('admin'))).status).toBe(204);
  });
});
