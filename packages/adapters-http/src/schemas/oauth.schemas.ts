import { isPkceChallenge, isPkceVerifier, ValidationError, type ValidationIssue } from '@uas/domain';
import * as v from 'valibot';
import type { QueryParameter } from '../openapi/route-description';
import { closedObject, text } from './json-api.schemas';
import { decodeQueryString } from './query-string';
import { parseWith } from './validation';

const CHALLENGE_DETAIL = 'code_challenge must be an S256 PKCE challenge: 43 base64url characters';

const codeChallenge = () =>
  v.pipe(
    text(),
    v.check(isPkceChallenge, CHALLENGE_DETAIL),
    v.description("base64url(SHA-256(code_verifier)), unpadded: the app's PKCE challenge (S256)."),
  );

/** `POST /v1/oauth/token` and `POST /v1/users/me/identities/complete`: the one-time code and the app's verifier. */
export const codeRedemptionBodySchema = closedObject(
  {
    code: v.pipe(text(), v.description('The one-time `code` the browser brought back to `redirect_to` (60 s, once).')),
    code_verifier: v.pipe(
      text(),
      v.check(isPkceVerifier, 'code_verifier must be 43 to 128 unreserved characters (RFC 7636)'),
      v.description('The PKCE verifier whose S256 challenge the app sent when it started.'),
    ),
  },
  'member',
);

export const parseCodeRedemption = (body: unknown) => {
  const { code, code_verifier } = parseWith(codeRedemptionBodySchema, body);
  return { code, verifier: code_verifier };
};

/** `POST /v1/users/me/identities`: which provider to link, where the browser ends, and the app's challenge. */
export const linkRequestBodySchema = closedObject(
  {
    provider: v.pipe(text(), v.description("The provider's slug.")),
    redirect_to: v.pipe(
      text(),
      v.description(
        'Where the browser is sent at the end, with `code` or `error`: a same-origin path or a URL of an origin in REDIRECT_ALLOW_LIST.',
      ),
    ),
    code_challenge: codeChallenge(),
  },
  'member',
);

export const parseLinkRequest = (body: unknown) => {
  const { provider, redirect_to, code_challenge } = parseWith(linkRequestBodySchema, body);
  return { provider, redirectTo: redirect_to, codeChallenge: code_challenge };
};

export const AUTHORIZE_QUERY_PARAMETERS: readonly QueryParameter[] = [
  {
    name: 'redirect_to',
    description:
      'Where the browser is sent at the end, with `code` or `error` in its query: a same-origin path or a URL of an origin listed in REDIRECT_ALLOW_LIST. Required for a sign-in.',
    schema: { type: 'string' },
  },
  {
    name: 'code_challenge',
    description: "The app's PKCE challenge: base64url(SHA-256(code_verifier)), 43 characters. Required for a sign-in.",
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' },
  },
  {
    name: 'code_challenge_method',
    description: 'Only `S256`, the default.',
    schema: { type: 'string', enum: ['S256'], default: 'S256' },
  },
  {
    name: 'link',
    description:
      'The handle of a link begun with `POST /v1/users/me/identities` (its `authorize_url` carries it); instead of the others.',
    schema: { type: 'string' },
  },
];

/** What `/authorize` is asked: a sign-in (where to end, the app's challenge), or a link's hand-off. */
export type AuthorizeQuery =
  | { kind: 'sign_in'; redirectTo: string; codeChallenge: string }
  | { kind: 'link'; handle: string };

/** Each parameter given once; 422 (`invalid_attribute`, naming the parameter) for a missing or malformed one. */
export function parseAuthorizeQuery(url: string): AuthorizeQuery {
  const query = decodeQueryString(url);
  const issues: ValidationIssue[] = [];
  const problem = (parameter: string, detail: string) => issues.push({ source: { parameter }, detail });
  const single = (name: string, required: boolean): string | undefined => {
    const values = query(name);
    if (values?.length === 1) return values[0];
    if (values !== undefined) problem(name, `${name} must be given once`);
    else if (required) problem(name, `${name} is required`);
    return undefined;
  };
  if (query('link') !== undefined) {
    const handle = single('link', true);
    if (handle === undefined) throw new ValidationError(issues);
    return { kind: 'link', handle };
  }
  const redirectTo = single('redirect_to', true);
  const challenge = single('code_challenge', true);
  if (challenge !== undefined && !isPkceChallenge(challenge)) problem('code_challenge', CHALLENGE_DETAIL);
  const method = single('code_challenge_method', false);
  if (method !== undefined && method !== 'S256') problem('code_challenge_method', 'code_challenge_method must be S256');
  if (issues.length > 0 || redirectTo === undefined || challenge === undefined) throw new ValidationError(issues);
  return { kind: 'sign_in', redirectTo, codeChallenge: challenge };
}

/** What a provider posts to the callback (Apple's `form_post`): taken as it comes, and sent on to the GET. */
export const formCallbackSchema = v.pipe(
  v.record(v.string(), v.string()),
  v.description(
    "The provider's answer: `state` with `code` or `error`; Apple adds `id_token` and, the first time, `user`.",
  ),
);

/** The callback's parameters (query, or the form a provider posted), each name's first value. */
export function callbackParameters(entries: Iterable<[string, string]>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of entries) if (!Object.hasOwn(params, name)) params[name] = value;
  return params;
}
