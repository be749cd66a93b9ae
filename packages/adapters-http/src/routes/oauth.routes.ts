import type { ExternalSignIn, IdentityLinks, OAuthStartLimit } from '@uas/domain';
import { Hono, type Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../app-env';
import { methodNotAllowed } from '../errors/http-problem';
import { limitPerAddress } from '../middleware/per-address-limit';
import { requestContext } from '../network/request-context';
import { sessionExample } from '../openapi/examples';
import { describeRoute, withFragment } from '../openapi/route-description';
import {
  AUTHORIZE_QUERY_PARAMETERS,
  callbackParameters,
  codeRedemptionBodySchema,
  formCallbackSchema,
  parseAuthorizeQuery,
  parseCodeRedemption,
} from '../schemas/oauth.schemas';
import { jsonBody } from '../schemas/validation';
import { LOGIN_ANSWER_DESCRIPTION, loginAnswerDocument, loginAnswerSchema } from '../session/login';
import {
  clearOAuthCookie,
  oauthCookie,
  oauthCookieAttributes,
  setOAuthCookie,
  withQueryParameter,
} from '../session/oauth-browser';

const TAGS = ['Identity providers'];

/** The callback a provider may POST to (Apple's `form_post`): the body guard reads its form. */
export const OAUTH_CALLBACK_PATH = /^\/v1\/oauth\/[^/]+\/callback$/;

/**
 * HEAD would run the GET handler (Hono serves HEAD with it) and spend the hand-off or the state
 * for a link preview or a prefetch: these paths answer it 405 before anything runs.
 */
const noHead = (allowed: readonly string[]) =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (c.req.method === 'HEAD') throw methodNotAllowed('HEAD', allowed);
    await next();
  });

/** Names the provider's slug in the path, for the document: the use cases look the provider up by it. */
const slugParam = withFragment(
  createMiddleware<AppEnv>((_c, next) => next()),
  { pathParameters: [{ name: 'slug', description: "The provider's slug.", schema: { type: 'string', minLength: 1 } }] },
);

const CALLBACK_QUERY = [
  { name: 'state', description: 'The state the service sent the provider.', schema: { type: 'string' } },
  { name: 'code', description: "The provider's authorization code.", schema: { type: 'string' } },
  { name: 'error', description: "The provider's refusal, if it refused.", schema: { type: 'string' } },
];

interface OAuthRoutesDeps {
  externalSignIn: ExternalSignIn;
  identityLinks: IdentityLinks;
  oauthStartLimit: OAuthStartLimit;
  /** PUBLIC_URL: the cookie's path and Secure flag follow it, and a form callback is sent on to its GET there. */
  publicUrl: string;
}

/**
 * Signing in with an identity provider, for apps: `/authorize` sends the browser to the provider
 * (its state bound to the browser by the `uas_oauth` cookie), the callback sends it on to the
 * app's `redirect_to` with a one-time `code` or an `error`, and the app redeems the code with its
 * PKCE verifier at `/v1/oauth/token` for what `/v1/login` answers.
 */
export function oauthRoutes({ externalSignIn, identityLinks, oauthStartLimit, publicUrl }: OAuthRoutesDeps) {
  const cookie = oauthCookieAttributes(publicUrl);
  return new Hono<AppEnv>()
    .get(
      '/v1/oauth/:slug/authorize',
      describeRoute({
        operationId: 'oauthAuthorize',
        summary: 'Start signing in with an identity provider',
        description:
          'Open it in the browser (a top-level navigation). Sends it on to the provider with `state`, `nonce` and PKCE, and sets the `uas_oauth` cookie (HttpOnly, SameSite=Lax, Path=the path of PUBLIC_URL + `v1/oauth/`, 10 minutes) that binds the sign-in to this browser. A bad `redirect_to` or `code_challenge` is answered here (422), never redirected to. With `link`, carries on a link begun with `POST /v1/users/me/identities`.',
        tags: TAGS,
        query: AUTHORIZE_QUERY_PARAMETERS,
        responses: {
          302: { description: "To the provider's authorization endpoint.", headers: ['Location', 'Set-Cookie'] },
        },
        errors: ['not_found', 'invalid_attribute', 'invalid_oauth_state', 'identity_provider_error'],
      }),
      slugParam,
      noHead(['GET']),
      limitPerAddress(oauthStartLimit),
      async (c) => {
        const query = parseAuthorizeQuery(c.req.url);
        const slug = c.req.param('slug');
        const { location, browser } =
          query.kind === 'link'
            ? await identityLinks.handOff(slug, query.handle)
            : await externalSignIn.authorize(slug, query);
        setOAuthCookie(c, browser, cookie);
        return c.redirect(location, 302);
      },
    )
    .get(
      '/v1/oauth/:slug/callback',
      describeRoute({
        operationId: 'oauthCallback',
        summary: 'Where the identity provider sends the browser back',
        description:
          'Register `PUBLIC_URL` + `v1/oauth/{slug}/callback` at the provider. Sends the browser on to `redirect_to` with a one-time `code` (60 s), or with `error=<code>` (`identity_not_linked`, `signup_disabled`, `identity_provider_error`…). A state that is unknown, spent, expired, another provider’s or another browser’s is answered 400 here: there is nothing trusted to redirect to. Any other parameter the provider adds is taken as it comes.',
        tags: TAGS,
        query: CALLBACK_QUERY,
        openQuery: true,
        responses: {
          302: { description: 'To `redirect_to`, with `code` or `error`.', headers: ['Location', 'Set-Cookie'] },
        },
        errors: ['invalid_oauth_state'],
      }),
      slugParam,
      noHead(['GET', 'POST']),
      async (c) => {
        const params = callbackParameters(new URL(c.req.url).searchParams);
        const outcome = await externalSignIn.callback(c.req.param('slug'), params, oauthCookie(c), requestContext(c));
        clearOAuthCookie(c, cookie);
        const location =
          outcome.code === undefined
            ? withQueryParameter(outcome.redirectTo, 'error', outcome.error.code)
            : withQueryParameter(outcome.redirectTo, 'code', outcome.code);
        return c.redirect(location, 302);
      },
    )
    .post(
      '/v1/oauth/:slug/callback',
      describeRoute({
        operationId: 'oauthFormCallback',
        summary: 'Where a provider posts its answer (Apple)',
        description:
          "A provider answering with `response_mode=form_post` posts a form here, cross-site, and a SameSite=Lax cookie does not come with it: the answer is sent on to the GET callback with the same parameters, where the browser's cookie comes along.",
        tags: TAGS,
        body: { schema: formCallbackSchema, mediaType: 'application/x-www-form-urlencoded' },
        responses: { 303: { description: 'To the GET callback, with the same parameters.', headers: ['Location'] } },
        // What a client that follows the 303 meets there.
        errors: ['invalid_oauth_state'],
      }),
      slugParam,
      (c) => forwardForm(c, publicUrl),
    )
    .post(
      '/v1/oauth/token',
      describeRoute({
        operationId: 'oauthToken',
        summary: 'Redeem the one-time code of a sign-in with an identity provider',
        description:
          'With the PKCE verifier whose challenge began the sign-in. Answers as `POST /v1/login`: the session record, its access token with `amr` `["fed"]`; or, for a user with an active second factor, an `mfa_challenges` resource to answer at `POST /v1/login/mfa`. The code is single use, whether or not the verifier matches.',
        tags: TAGS,
        body: { schema: codeRedemptionBodySchema, example: { code: 'Vq3…', code_verifier: 'M25…' } },
        responses: {
          200: { description: LOGIN_ANSWER_DESCRIPTION, schema: loginAnswerSchema, example: sessionExample },
        },
        errors: ['invalid_oauth_code', 'account_inactive', 'account_banned', 'email_not_verified'],
      }),
      jsonBody(parseCodeRedemption),
      async (c) => {
        const { code, verifier } = c.req.valid('json');
        return c.json(loginAnswerDocument(await externalSignIn.token(code, verifier, requestContext(c))), 200);
      },
    );
}

/** A posted callback, sent on as a GET of the callback at PUBLIC_URL with the same parameters. */
function forwardForm(c: Context<AppEnv>, publicUrl: string): Response {
  const query = new URLSearchParams(c.get('formBody'));
  const slug = encodeURIComponent(c.req.param('slug') ?? '');
  return c.redirect(`${publicUrl}v1/oauth/${slug}/callback?${query}`, 303);
}
