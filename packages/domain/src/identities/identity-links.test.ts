import { beforeEach, describe, expect, it } from '../testing/test-api.ts';
import {
  IdentityAlreadyLinkedError,
  InvalidOAuthCodeError,
  InvalidOAuthStateError,
  LastSignInMethodError,
  NotFoundError,
  ValidationError,
} from '../shared/errors.ts';
import type { Identity } from '../shared/identity.ts';
import { buildDomain, PUBLIC_URL, rejectionOf, type Domain } from '../testing/domain-fixture.ts';
import {
  account,
  addProvider,
  CHALLENGE,
  codeOf,
  REQUEST,
  signInThrough,
  stateIn,
  VERIFIER,
} from '../testing/identity-fixture.ts';
import type { UpstreamAccount } from './oauth-attempt.ts';

const bearerOf = (userId: string): Identity => ({ kind: 'user', subjectId: userId, sessionId: 'session-1' });
const byUser = (who: Identity) => ({ actor: { type: 'user', id: who.subjectId } as const, request: REQUEST });

describe("a signed-in user's identities", () => {
  let domain: Domain;
  let ann: Identity;
  beforeEach(async () => {
    domain = buildDomain();
    await addProvider(domain);
    ann = bearerOf((await domain.createUser({ email: 'ann@example.com' })).id);
  });

  /** Starts a link as `who`, carries it through the browser and the provider: the code redirect_to gets. */
  async function linkCode(who: Identity, at: UpstreamAccount = account({ subject: 'gh-1' })) {
    const { authorizeUrl } = await domain.identityLinks.start(who, {
      provider: 'acme',
      redirectTo: '/linked',
      codeChallenge: CHALLENGE,
    });
    const handle = new URL(authorizeUrl).searchParams.get('link') ?? '';
    const { location, browser } = await domain.identityLinks.handOff('acme', handle);
    const params = domain.upstream.consent(stateIn(location), at);
    return codeOf(await domain.externalSignIn.callback('acme', params, browser, REQUEST));
  }
  const complete = (who: Identity, code: string, verifier = VERIFIER) =>
    domain.identityLinks.complete(who, { code, verifier }, REQUEST);

  it('links through the provider, commits at the redemption with the same bearer, and lists it', async () => {
    const { authorizeUrl, expires } = await domain.identityLinks.start(ann, {
      provider: 'acme',
      redirectTo: '/linked',
      codeChallenge: CHALLENGE,
    });
    expect(authorizeUrl).toMatch(new RegExp(`^${PUBLIC_URL}v1/oauth/acme/authorize\\?link=`));
    expect(expires).toEqual(new Date(domain.clock.now().getTime() + 600_000));
    const code = await linkCode(ann);
    expect(await domain.userIdentities.list(ann.subjectId)).toEqual([]);
    const { identity } = await complete(ann, code);
    expect(identity).toMatchObject({ userId: ann.subjectId, subject: 'gh-1', lastSignIn: null });
    expect(await domain.userIdentities.list(ann.subjectId)).toMatchObject([{ identity, provider: { slug: 'acme' } }]);
    const event = domain.repositories.audit.events.find((recorded) => recorded.action === 'user.identity_linked');
    expect(event).toMatchObject({
      actor: { type: 'user', id: ann.subjectId },
      changes: { identity: { before: null, after: { provider: 'acme', subject: 'gh-1' } } },
    });
  });

  it("refuses a link's code redeemed by another user's bearer, and links nothing", async () => {
    const bob = bearerOf((await domain.createUser({ email: 'bob@example.com' })).id);
    const code = await linkCode(ann);
    await rejectionOf(complete(bob, code), InvalidOAuthCodeError);
    await rejectionOf(complete(ann, code), InvalidOAuthCodeError);
    expect(domain.repositories.externalIdentities.rows.size).toBe(0);
  });

  it('refuses a wrong verifier, and a sign-in code at the link completion', async () => {
    await rejectionOf(complete(ann, await linkCode(ann), `${VERIFIER}x`), InvalidOAuthCodeError);
    const signInCode = codeOf(await signInThrough(domain, 'acme', account({ email: 'new@example.com' })));
    await rejectionOf(complete(ann, signInCode), InvalidOAuthCodeError);
    // And a link's code is no sign-in.
    await rejectionOf(domain.externalSignIn.token(await linkCode(ann), VERIFIER, REQUEST), InvalidOAuthCodeError);
  });

  it('takes a hand-off handle once, and only at its own provider', async () => {
    await addProvider(domain, { slug: 'other' });
    const start = () =>
      domain.identityLinks.start(ann, { provider: 'acme', redirectTo: '/linked', codeChallenge: CHALLENGE });
    const handleOf = (url: string) => new URL(url).searchParams.get('link') ?? '';
    const handle = handleOf((await start()).authorizeUrl);
    await domain.identityLinks.handOff('acme', handle);
    await rejectionOf(domain.identityLinks.handOff('acme', handle), InvalidOAuthStateError);
    await rejectionOf(
      domain.identityLinks.handOff('other', handleOf((await start()).authorizeUrl)),
      InvalidOAuthStateError,
    );
  });

  it("refuses an account at the provider that is someone else's already", async () => {
    const bob = bearerOf((await domain.createUser({ email: 'bob@example.com' })).id);
    await complete(bob, await linkCode(bob));
    await rejectionOf(complete(ann, await linkCode(ann)), IdentityAlreadyLinkedError);
  });

  it('refuses a foreign redirect_to, pointing at the member', async () => {
    const error = await rejectionOf(
      domain.identityLinks.start(ann, { provider: 'acme', redirectTo: '//evil.example', codeChallenge: CHALLENGE }),
      ValidationError,
    );
    expect(error.issues.map((issue) => issue.source)).toEqual([{ pointer: '/redirect_to' }]);
  });

  it('unlinks (UserIdentities), audited, but never the last way in', async () => {
    const { identity } = await complete(ann, await linkCode(ann));
    await domain.userIdentities.unlink(ann.subjectId, identity.id, byUser(ann));
    expect(await domain.userIdentities.list(ann.subjectId)).toEqual([]);
    await rejectionOf(domain.userIdentities.unlink(ann.subjectId, identity.id, byUser(ann)), NotFoundError);
    expect(domain.repositories.audit.events.at(-1)).toMatchObject({
      action: 'user.identity_unlinked',
      changes: { identity: { before: { provider: 'acme', subject: 'gh-1' }, after: null } },
    });

    // A user made by a sign-in has no password: its one identity stays.
    const outcome = await signInThrough(domain, 'acme', account({ subject: 'solo', email: 'solo@example.com' }));
    expect(outcome.code).toBeDefined();
    const [solo] = [...domain.repositories.externalIdentities.rows.values()];
    const owner = bearerOf(solo?.userId ?? '');
    await rejectionOf(
      domain.userIdentities.unlink(owner.subjectId, solo?.id ?? '', byUser(owner)),
      LastSignInMethodError,
    );
    // Nor can another user remove it.
    await rejectionOf(domain.userIdentities.unlink(ann.subjectId, solo?.id ?? '', byUser(ann)), NotFoundError);
  });
});
