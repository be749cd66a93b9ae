import type { AuditChanges, Initiator } from '../audit/audit-event.ts';
import { auditRecord, userTarget } from '../audit/audit-records.ts';
import type { Clock } from '../shared/clock.ts';
import { NotFoundError } from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { UserRepository } from '../users/user.repository.ts';
import type { ExternalIdentity } from './external-identity.ts';
import type { ExternalIdentityRepository } from './external-identity.repository.ts';
import type { IdentityProvider } from './identity-provider.ts';
import type { IdentityProviderRepository } from './identity-provider.repository.ts';

/** An identity with the provider it is at, as it is shown: the provider by its slug and kind. */
export interface LinkedIdentity {
  readonly identity: ExternalIdentity;
  readonly provider: Pick<IdentityProvider, 'slug' | 'kind'>;
}

/** What a link or unlink event shows under `identity`: the provider's slug and the subject there. */
export function identityChange(
  provider: Pick<IdentityProvider, 'slug'>,
  subject: string,
  linked: boolean,
): AuditChanges {
  const identity = { provider: provider.slug, subject };
  return { identity: linked ? { before: null, after: identity } : { before: identity, after: null } };
}

export interface UserIdentitiesDeps {
  users: UserRepository;
  identities: ExternalIdentityRepository;
  providers: IdentityProviderRepository;
  clock: Clock;
  ids: IdGenerator;
}

/** A user's external identities: listed with their providers, and unlinked, never the last way in. */
export class UserIdentities {
  constructor(private readonly deps: UserIdentitiesDeps) {}

  /** The user's identities, oldest first; NotFoundError when there is no such user. */
  async list(userId: string): Promise<LinkedIdentity[]> {
    const { users, identities, providers } = this.deps;
    if (!(await users.findById(userId))) throw new NotFoundError('user');
    const [linked, known] = await Promise.all([identities.listByUser(userId), providers.list()]);
    const byId = new Map(known.map((provider) => [provider.id, provider]));
    // An identity whose provider was deleted meanwhile went with it: skip it rather than fail.
    return linked.flatMap((identity) => {
      const provider = byId.get(identity.providerId);
      return provider ? [{ identity, provider }] : [];
    });
  }

  /**
   * Removes one identity of the user, audited (`user.identity_unlinked`) in its transaction;
   * LastSignInMethodError when it is the user's last way in, NotFoundError when the user has none
   * with that id.
   */
  async unlink(userId: string, identityId: string, by: Initiator): Promise<void> {
    const found = (await this.list(userId)).find(({ identity }) => identity.id === identityId);
    if (!found) throw new NotFoundError('identity');
    const audit = auditRecord(
      this.deps.ids.next(),
      this.deps.clock.now(),
      by,
      'user.identity_unlinked',
      userTarget(userId),
      identityChange(found.provider, found.identity.subject, false),
    );
    if (!(await this.deps.identities.unlink(userId, identityId, audit))) throw new NotFoundError('identity');
  }
}
