import { beforeEach, describe, expect, it } from '../testing/test-api.ts';
import { buildDomain, rejectionOf, type Domain } from '../testing/domain-fixture.ts';
import type { Initiator } from '../audit/audit-event.ts';
import { auditRecord, userTarget } from '../audit/audit-records.ts';
import { LastSignInMethodError, NotFoundError } from '../shared/errors.ts';
import { NO_PASSWORD_HASH } from '../users/password-match.ts';
import type { User } from '../users/user.ts';
import type { ExternalIdentity } from './external-identity.ts';
import type { IdentityProvider } from './identity-provider.ts';

const BY: Initiator = {
  actor: { type: 'admin', id: '00000000-0000-4000-8000-0000000000aa' },
  request: { requestId: 'r', clientAddress: null, userAgent: null },
};

describe('UserIdentities', () => {
  let domain: Domain;
  let github: IdentityProvider;
  let acme: IdentityProvider;
  beforeEach(async () => {
    domain = buildDomain();
    github = await domain.identityProviders.create(
      { slug: 'github', kind: 'github', clientId: 'Iv1.abc', clientSecret: 's' },
      BY,
    );
    acme = await domain.identityProviders.create(
      { slug: 'acme', kind: 'oidc', issuer: 'https://sso.acme.test', clientId: 'uas' },
      BY,
    );
  });

  /** The audit trail, newest first. */
  const events = async () => (await domain.repositories.audit.list({ page: 1, size: 100 })).events;

  async function link(user: User, provider: IdentityProvider, subject: string): Promise<ExternalIdentity> {
    domain.clock.advance(1);
    const now = domain.clock.now();
    const identity: ExternalIdentity = {
      id: domain.ids.next(),
      userId: user.id,
      providerId: provider.id,
      subject,
      email: user.email,
      emailVerified: true,
      created: now,
      lastSignIn: null,
    };
    const audit = auditRecord(domain.ids.next(), now, BY, 'user.identity_linked', userTarget(user.id));
    expect(await domain.repositories.externalIdentities.link(identity, audit)).not.toBeNull();
    return identity;
  }

  async function withoutPassword(user: User): Promise<void> {
    await domain.repositories.users.update(user.id, (current) => ({
      user: { ...current, passwordHash: NO_PASSWORD_HASH },
    }));
  }

  it("lists a user's identities oldest first, each with its provider's slug and kind", async () => {
    const user = await domain.createUser();
    const other = await domain.createUser();
    const first = await link(user, github, '583231');
    const second = await link(user, acme, 'acme|42');
    await link(other, github, '999');
    const listed = await domain.userIdentities.list(user.id);
    expect(listed.map(({ identity, provider }) => [identity, provider.slug, provider.kind])).toEqual([
      [first, 'github', 'github'],
      [second, 'acme', 'oidc'],
    ]);
    await rejectionOf(domain.userIdentities.list(domain.ids.next()), NotFoundError);
  });

  it('forgets the identities of a deleted provider', async () => {
    const user = await domain.createUser();
    await link(user, github, '583231');
    await domain.identityProviders.delete(github.id, BY);
    expect(await domain.userIdentities.list(user.id)).toEqual([]);
  });

  it('unlinks an identity of a user who has a password, audited with the provider and subject', async () => {
    const user = await domain.createUser();
    const identity = await link(user, github, '583231');
    await domain.userIdentities.unlink(user.id, identity.id, BY);
    expect(await domain.userIdentities.list(user.id)).toEqual([]);
    expect((await events())[0]).toMatchObject({
      action: 'user.identity_unlinked',
      actor: BY.actor,
      target: { type: 'users', id: user.id },
      changes: { identity: { before: { provider: 'github', subject: '583231' }, after: null } },
    });
    await rejectionOf(domain.userIdentities.unlink(user.id, identity.id, BY), NotFoundError);
  });

  it("never unlinks a user's last way in, but one of two identities", async () => {
    const user = await domain.createUser();
    await withoutPassword(user);
    const first = await link(user, github, '583231');
    const second = await link(user, acme, 'acme|42');
    await domain.userIdentities.unlink(user.id, first.id, BY);
    const count = (await events()).length;
    await rejectionOf(domain.userIdentities.unlink(user.id, second.id, BY), LastSignInMethodError);
    expect((await domain.userIdentities.list(user.id)).map(({ identity }) => identity.id)).toEqual([second.id]);
    expect(await events()).toHaveLength(count);
  });

  it("refuses another user's identity as unknown", async () => {
    const user = await domain.createUser();
    const other = await domain.createUser();
    const identity = await link(other, github, '583231');
    await rejectionOf(domain.userIdentities.unlink(user.id, identity.id, BY), NotFoundError);
    expect(await domain.userIdentities.list(other.id)).toHaveLength(1);
  });
});
