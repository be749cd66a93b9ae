import { auditRecord, initiatorOf, userTarget } from '../audit/audit-records.ts';
import type { RequestContext } from '../audit/audit-event.ts';
import type { Clock } from '../shared/clock.ts';
import { InvalidOAuthCodeError, InvalidOAuthStateError, NotFoundError } from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { Identity } from '../shared/identity.ts';
import type { ExternalIdentityRepository } from './external-identity.repository.ts';
import { newIdentity } from './external-identity.rules.ts';
import type { ProviderRedirect } from './external-sign-in.ts';
import type { IdentityProviderRepository } from './identity-provider.repository.ts';
import type { OAuthTrips, TripRequest } from './oauth-trips.ts';
import { identityChange, type LinkedIdentity } from './user-identities.ts';

export interface IdentityLinksDeps {
  trips: OAuthTrips;
  providers: IdentityProviderRepository;
  identities: ExternalIdentityRepository;
  clock: Clock;
  ids: IdGenerator;
  /** PUBLIC_URL (ending with `/`): where the link's browser starts. */
  publicUrl: string;
}

/** A link begun: the browser opens `authorizeUrl` before `expires`. */
export interface LinkRequest {
  readonly id: string;
  readonly authorizeUrl: string;
  readonly expires: Date;
}

/**
 * A signed-in user links a provider (`/v1/users/me/identities`). A link starts by an API call with
 * the user's bearer token and goes on in the browser through the provider, like a sign-in; it
 * commits only when its code is redeemed with the same user's bearer token and the app's PKCE
 * verifier, so a link carried through someone else's browser never lands on their account.
 * Listing and unlinking are UserIdentities', the admins' too.
 */
export class IdentityLinks {
  constructor(private readonly deps: IdentityLinksDeps) {}

  /** Begins linking the provider of `request.provider` to the bearer's user. */
  async start(identity: Identity, request: TripRequest & { provider: string }): Promise<LinkRequest> {
    const { trips, publicUrl } = this.deps;
    const provider = await trips.enabledProvider(request.provider);
    trips.checkRedirect(request.redirectTo, { redirectTo: { pointer: '/redirect_to' } });
    const { attempt, handle } = await trips.begin(provider, 'link', { ...request, userId: identity.subjectId });
    const query = new URLSearchParams({ link: handle ?? '' });
    return {
      id: attempt.id,
      authorizeUrl: `${publicUrl}v1/oauth/${provider.slug}/authorize?${query}`,
      expires: attempt.expires,
    };
  }

  /** The link's browser brings its handle to `/authorize`: bound to a new cookie, sent to the provider. Once. */
  async handOff(slug: string, handle: string): Promise<ProviderRedirect> {
    const { trips } = this.deps;
    const provider = await trips.enabledProvider(slug);
    const handedOff = await trips.handOff(provider, handle);
    if (!handedOff) throw new InvalidOAuthStateError();
    const location = await trips.authorizationUrl(provider, handedOff.attempt, handedOff.state);
    return { location, browser: handedOff.browser };
  }

  /** Redeems a link's code: by the user who started it, with the app's verifier. The identity linked. */
  async complete(
    identity: Identity,
    redemption: { code: string; verifier: string },
    request: RequestContext,
  ): Promise<LinkedIdentity> {
    const { trips, providers, identities, clock, ids } = this.deps;
    const attempt = await trips.redeem(redemption.code, redemption.verifier, 'link');
    const { account } = attempt;
    if (attempt.userId !== identity.subjectId || account === null) throw new InvalidOAuthCodeError();
    const provider = await providers.get(attempt.providerId);
    if (!provider) throw new InvalidOAuthCodeError();
    const now = clock.now();
    const userId = identity.subjectId;
    const audit = auditRecord(
      ids.next(),
      now,
      initiatorOf(identity, request),
      'user.identity_linked',
      userTarget(userId),
      identityChange(provider, account.subject, true),
    );
    const linked = await identities.link(newIdentity(ids.next(), provider, account, userId, now, false), audit);
    if (!linked) throw new NotFoundError('user');
    return { identity: linked, provider };
  }
}
