import {
  initiatorOf,
  type ApplicationGrants,
  NotFoundError,
  type AuthService,
  type ExternalSignIn,
  type IdentityProvider,
  type IdentityProviderService,
  type SessionGrant,
  type SignInSteps,
  type TokenKeys,
} from '@uas/domain';
import { type Context, Hono } from 'hono';
import type { AppEnv } from '../../app-env';
import { requestContext } from '../../network/request-context';
import type { OpenIdInteraction, OpenIdInteractions } from '../../openid/openid-interactions';
import { pageRoute } from '../../openapi/route-description';
import { isSameOrigin } from '../../session/same-origin';
import { ACCOUNT_PATH } from '../account-layout';
import { stoppedPage } from '../account-views';
import { AccountSessions } from './account-session';
import { ExternalTrips } from './external-trip';
import { firstStep, refusalOf, signInWithForm, type FormSignIn, type Refusal } from './form-sign-in';
import {
  applicationsPage,
  consentPage,
  onwardPage,
  secondStepPage,
  signInPage,
  type PagePlace,
  type ProviderLink,
} from './openid-views';

export interface OpenIdPagesDeps {
  openIdInteractions: OpenIdInteractions;
  applicationGrants: ApplicationGrants;
  userSignIn: SignInSteps;
  userAuth: AuthService;
  externalSignIn: ExternalSignIn;
  identityProviders: IdentityProviderService;
  tokenKeys: Pick<TokenKeys, 'digest' | 'digests'>;
  publicUrl: string;
  /** Where a page that cannot go on leads (APP_URL), as the other pages do. */
  appUrl: string | null;
}

const AUTHORIZE_PATH = `${ACCOUNT_PATH}/authorize/:uid`;
const APPLICATIONS_PATH = `${ACCOUNT_PATH}/applications`;
const SIGN_IN_PATH = `${ACCOUNT_PATH}/sign-in`;
const SIGN_OUT_PATH = `${ACCOUNT_PATH}/sign-out`;
const REVOKE_PATH = `${APPLICATIONS_PATH}/revoke`;

/** The pages' forms, posted URL-encoded (the body guard's form paths): fixed ones, and an authorization's. */
export const OPENID_FORM_PATHS = [SIGN_IN_PATH, SIGN_OUT_PATH, REVOKE_PATH];
export const OPENID_FORM_PATH_PATTERN = /^\/account\/authorize\/[^/]+(?:\/consent)?$/;

/** How a provider is named on its button: its brand for the presets, its slug for any other. */
const PROVIDER_NAMES: Readonly<Record<IdentityProvider['kind'], string | null>> = {
  github: 'GitHub',
  google: 'Google',
  microsoft: 'Microsoft',
  apple: 'Apple',
  oidc: null,
};

/** An authorization's pages, from the one at `/account/authorize/:uid` (depth 1) down. */
const rootAt = (depth: number) => '../'.repeat(depth);
const authorizeAction = (root: string, uid: string) => `${root}authorize/${encodeURIComponent(uid)}`;

/** A page met with no sign-in to go on with: what to say, and no form. */
const TEXTS = {
  noSuchSignIn: 'This sign-in is unknown, has expired, or was started in another browser.',
  startAgain: 'Go back to the application and sign in again.',
  crossSite: 'This form was sent from another site, so nothing was done.',
  staleForm: 'This form is out of date or was sent from another site, so nothing was done.',
};

/** Where a sign-in form sits and what a grant leads to there. */
interface SignInPlace {
  readonly place: PagePlace;
  readonly title: string;
  readonly intro: string;
  readonly providers: readonly ProviderLink[];
  finish(c: Context<AppEnv>, grant: SessionGrant): Promise<Response>;
}

/**
 * The end user's pages of the OpenID flow, under `/account/`, server-rendered and working without
 * script: signing in for an authorization (a password, then the second factor when the account
 * has one, or an identity provider), the consent, and the applications a user let in. Every form
 * posts here and only from here (the same-origin check, as the other pages); an authorization is
 * found only with the engine's cookie of the browser that began it.
 */
export function openIdPagesRoutes(deps: OpenIdPagesDeps) {
  const { openIdInteractions: interactions, userSignIn, externalSignIn, appUrl } = deps;
  const sessions = new AccountSessions(deps);
  const trips = new ExternalTrips(deps.publicUrl);

  const stopped = (c: Context<AppEnv>, status: 403 | 404, reason: string, root: string) =>
    c.html(stoppedPage('Sign in', reason, TEXTS.startAgain, appUrl, root), status);
  const noSuchSignIn = (c: Context<AppEnv>, root: string) => stopped(c, 404, TEXTS.noSuchSignIn, root);
  const staleForm = (c: Context<AppEnv>, status: 403 | 404, reason: string, root: string) =>
    c.html(stoppedPage('Your applications', reason, 'Open your applications again.', appUrl, root), status);

  async function providerLinks(uid: string, root: string): Promise<ProviderLink[]> {
    const providers = await deps.identityProviders.list();
    return providers
      .filter(({ enabled }) => enabled)
      .map(({ slug, kind }) => ({
        label: PROVIDER_NAMES[kind] ?? slug,
        href: `${authorizeAction(root, uid)}/with/${encodeURIComponent(slug)}`,
      }));
  }

  /** The sign-in of an authorization, on a page `depth` segments below `/account/`. */
  async function authorizing(interaction: OpenIdInteraction, depth: number): Promise<SignInPlace> {
    const root = rootAt(depth);
    const client = interaction.client.name;
    return {
      place: { root, action: authorizeAction(root, interaction.uid) },
      title: 'Sign in',
      intro: `Sign in to continue to ${client}.`,
      providers: await providerLinks(interaction.uid, root),
      async finish(c, grant) {
        sessions.keep(c, grant);
        const location = await interactions.signedIn(c, interaction.uid, {
          accountId: grant.principal.id,
          amr: grant.amr,
        });
        return c.html(onwardPage({ title: 'Signed in', root, location, client }));
      },
    };
  }

  /** The sign-in of the applications page. */
  const applications: SignInPlace = {
    place: { root: '', action: 'sign-in' },
    title: 'Your applications',
    intro: 'Sign in to see the applications that use your account.',
    providers: [],
    async finish(c, grant) {
      sessions.keep(c, grant);
      return c.redirect('applications', 303);
    },
  };

  function signInForm(c: Context<AppEnv>, where: SignInPlace, email: string, refusal: Refusal | null): Response {
    if (refusal?.retryAfterSeconds !== undefined) c.header('Retry-After', String(refusal.retryAfterSeconds));
    const page = signInPage({ ...where, email, error: refusal?.text ?? null });
    return c.html(page, refusal?.status ?? 200);
  }

  /** The page a sign-in's outcome leads to: the grant's end, the second step, or the form again with why. */
  function outcomePage(c: Context<AppEnv>, where: SignInPlace, outcome: FormSignIn, email: string) {
    if (outcome.state === 'signed_in') return where.finish(c, outcome.grant);
    if (outcome.state === 'refused') return signInForm(c, where, email, outcome.refusal);
    const { refusal } = outcome;
    const page = secondStepPage({ place: where.place, pending: outcome.pending, error: refusal?.text ?? null });
    return c.html(page, refusal?.status ?? 200);
  }

  const postedSignIn = (c: Context<AppEnv>) => {
    const request = requestContext(c);
    return signInWithForm(userSignIn, c.get('formBody'), { ...request, clientAddress: c.get('client').address });
  };
  const field = (c: Context<AppEnv>, name: string) => c.get('formBody').get(name) ?? '';

  /** The authorization of this browser's engine cookie, or null: another browser's, ended, unknown. */
  const interactionOf = (c: Context<AppEnv>) => interactions.details(c, c.req.param('uid') ?? '');

  /** A GET that spends something (a code) or begins a trip: HEAD (a link preview) does neither. */
  const headRefused = (c: Context<AppEnv>) => c.body(null, 405, { Allow: 'GET' });

  return new Hono<AppEnv>()
    .get(AUTHORIZE_PATH, pageRoute, async (c) => {
      const interaction = await interactionOf(c);
      if (!interaction) return noSuchSignIn(c, rootAt(1));
      if (interaction.prompt === 'consent') return c.redirect(`${encodeURIComponent(interaction.uid)}/consent`, 303);
      return signInForm(c, await authorizing(interaction, 1), interaction.loginHint ?? '', null);
    })
    .post(AUTHORIZE_PATH, pageRoute, async (c) => {
      if (!isSameOrigin(c)) return stopped(c, 403, TEXTS.crossSite, rootAt(1));
      const interaction = await interactionOf(c);
      if (!interaction) return noSuchSignIn(c, rootAt(1));
      if (interaction.prompt === 'consent') return c.redirect(`${encodeURIComponent(interaction.uid)}/consent`, 303);
      return outcomePage(c, await authorizing(interaction, 1), await postedSignIn(c), field(c, 'email'));
    })
    .get(`${AUTHORIZE_PATH}/with/:slug`, pageRoute, async (c) => {
      if (c.req.method === 'HEAD') return headRefused(c);
      const interaction = await interactionOf(c);
      if (!interaction) return noSuchSignIn(c, rootAt(3));
      const slug = c.req.param('slug');
      const providers = await deps.identityProviders.list();
      if (!providers.some((provider) => provider.enabled && provider.slug === slug)) {
        return noSuchSignIn(c, rootAt(3));
      }
      const returnPath = `authorize/${encodeURIComponent(interaction.uid)}/external`;
      return c.redirect(await trips.start(c, slug, returnPath), 303);
    })
    .get(`${AUTHORIZE_PATH}/external`, pageRoute, async (c) => {
      if (c.req.method === 'HEAD') return headRefused(c);
      const interaction = await interactionOf(c);
      if (!interaction) return noSuchSignIn(c, rootAt(2));
      const where = await authorizing(interaction, 2);
      const email = interaction.loginHint ?? '';
      const error = c.req.query('error');
      const code = c.req.query('code');
      if (error !== undefined || code === undefined) {
        trips.takeVerifier(c);
        return signInForm(c, where, email, refusalOf(error ?? 'invalid_oauth_code'));
      }
      const outcome = await firstStep(externalSignIn.token(code, trips.takeVerifier(c), requestContext(c)));
      return outcomePage(c, where, outcome, email);
    })
    .get(`${AUTHORIZE_PATH}/consent`, pageRoute, async (c) => {
      const interaction = await interactionOf(c);
      if (!interaction) return noSuchSignIn(c, rootAt(2));
      if (interaction.prompt !== 'consent') return c.redirect(authorizeAction(rootAt(2), interaction.uid), 303);
      const place = { root: rootAt(2), action: 'consent' };
      return c.html(consentPage({ place, client: interaction.client.name, scopes: interaction.scopes }));
    })
    .post(`${AUTHORIZE_PATH}/consent`, pageRoute, async (c) => {
      const root = rootAt(2);
      if (!isSameOrigin(c)) return stopped(c, 403, TEXTS.crossSite, root);
      const interaction = await interactionOf(c);
      if (!interaction) return noSuchSignIn(c, root);
      if (interaction.prompt !== 'consent') return c.redirect(authorizeAction(root, interaction.uid), 303);
      const decision = field(c, 'decision');
      if (decision !== 'allow' && decision !== 'deny') {
        const place = { root, action: 'consent' };
        return c.html(consentPage({ place, client: interaction.client.name, scopes: interaction.scopes }), 400);
      }
      const location =
        decision === 'allow'
          ? await interactions.consented(c, interaction.uid)
          : await interactions.declined(c, interaction.uid);
      const title = decision === 'allow' ? 'Access allowed' : 'Access denied';
      return c.html(onwardPage({ title, root, location, client: interaction.client.name }));
    })
    .get(APPLICATIONS_PATH, pageRoute, async (c) => {
      const session = await sessions.resume(c);
      if (!session) return signInForm(c, applications, '', null);
      const granted = await deps.applicationGrants.list(session.identity.subjectId);
      return c.html(applicationsPage({ applications: granted, csrf: session.csrf, error: null }));
    })
    .post(SIGN_IN_PATH, pageRoute, async (c) => {
      if (!isSameOrigin(c)) return staleForm(c, 403, TEXTS.crossSite, '');
      return outcomePage(c, applications, await postedSignIn(c), field(c, 'email'));
    })
    .post(REVOKE_PATH, pageRoute, async (c) => {
      const root = rootAt(1);
      const session = isSameOrigin(c) ? await sessions.resume(c) : null;
      if (!session || !(await sessions.csrfMatches(session, field(c, 'csrf')))) {
        return staleForm(c, 403, TEXTS.staleForm, root);
      }
      try {
        const by = initiatorOf(session.identity, requestContext(c));
        await deps.applicationGrants.revoke(session.identity.subjectId, field(c, 'application'), by);
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
        return staleForm(c, 404, 'That application has no access to your account.', root);
      }
      return c.redirect(`${root}applications`, 303);
    })
    .post(SIGN_OUT_PATH, pageRoute, async (c) => {
      const session = isSameOrigin(c) ? await sessions.resume(c) : null;
      if (!session || !(await sessions.csrfMatches(session, field(c, 'csrf')))) {
        return staleForm(c, 403, TEXTS.staleForm, '');
      }
      await sessions.end(c, session);
      return c.redirect('applications', 303);
    });
}
