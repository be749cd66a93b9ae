import {
  ID_TOKEN_SIGNING_ALGORITHMS,
  OAUTH_APPLICATION_TYPES,
  OAUTH_CLIENT_NAME_MAX_LENGTH,
  OAUTH_CLIENT_TYPES,
  OPENID_SCOPES,
  REDIRECT_URI_MAX_LENGTH,
  REDIRECT_URIS_MAX_COUNT,
  type OAuthClientDraft,
  type OAuthClientPatch,
} from '@uas/domain';
import * as v from 'valibot';
import {
  assertResourceIdentity,
  closedObject,
  identifiedResourceDocument,
  resourceDocument,
  text,
} from './json-api.schemas';
import { parseWith } from './validation';

export const OAUTH_CLIENT_TYPE = 'oauth_clients';

// Shapes only: the domain's rules (oauth-client.rules.ts) judge the values, each with its pointer.
const name = v.pipe(
  text(),
  v.description('What users see on the consent page and in their applications.'),
  v.metadata({ minLength: 1, maxLength: OAUTH_CLIENT_NAME_MAX_LENGTH }),
);
const type = v.pipe(
  text(),
  v.description(
    '`confidential` (a server that keeps a secret: it gets one) or `public` (a browser or native app: PKCE S256 alone). Never changes.',
  ),
  v.metadata({ enum: [...OAUTH_CLIENT_TYPES] }),
);
const applicationType = v.pipe(
  text(),
  v.description(
    '`web` (the default) or `native` (RFC 8252: loopback and private-use scheme redirects). Never changes.',
  ),
  v.metadata({ enum: [...OAUTH_APPLICATION_TYPES] }),
);
const uris = (description: string) =>
  v.pipe(
    v.array(v.pipe(text(), v.metadata({ maxLength: REDIRECT_URI_MAX_LENGTH })), 'must be an array'),
    v.description(description),
    v.metadata({ maxItems: REDIRECT_URIS_MAX_COUNT }),
  );
const URI_RULES =
  'matched exactly, byte for byte; absolute, printable ASCII, no fragment, no `*`, no user name or password, never `javascript:`, `data:`, `vbscript:` or `file:`. A web client: https on a non-loopback host. A native client: http on localhost, 127.0.0.1 or [::1] (any port), a claimed https URL, or a private-use scheme of a reverse domain name (`com.example.app:/callback`).';
const redirectUris = uris(
  `Where the service may send the browser back with a code (1 to ${REDIRECT_URIS_MAX_COUNT}): ${URI_RULES}`,
);
const postLogoutRedirectUris = uris(
  `Where RP-initiated logout may lead (0 to ${REDIRECT_URIS_MAX_COUNT}), by the same rules.`,
);
const scopes = v.pipe(
  v.array(text(), 'must be an array'),
  v.description(`What the client may ask for, among ${OPENID_SCOPES.join(', ')}; \`openid\` is always added.`),
);
const firstParty = v.pipe(
  v.boolean('must be true or false'),
  v.description('Trusted by the operator: its users are not asked to consent. False unless told.'),
);

const idTokenSigningAlgorithm = v.pipe(
  v.nullable(v.string('must be a string or null')),
  v.description(
    "How the client's ID tokens are signed: `ES256`, `EdDSA` or `RS256` (for relying parties that know no other); null: as the service signs its own tokens (`JWT_ALGORITHM`). An algorithm other than RS256 and `JWT_ALGORITHM` has no key to sign with.",
  ),
  v.metadata({ enum: [...ID_TOKEN_SIGNING_ALGORITHMS, null] }),
);

/** POST /v1/admin/oauth-clients: the client; a confidential one's secret is generated. */
export const createOAuthClientDocument = resourceDocument(
  closedObject(
    {
      name,
      type,
      application_type: v.optional(applicationType),
      redirect_uris: redirectUris,
      post_logout_redirect_uris: v.optional(postLogoutRedirectUris),
      scopes: v.optional(scopes),
      first_party: v.optional(firstParty),
      id_token_signed_response_alg: v.optional(idTokenSigningAlgorithm),
    },
    'attribute',
  ),
  OAUTH_CLIENT_TYPE,
);

// The wire's snake_case attributes are the domain's camelCase ones; absent stays absent (undefined).

export function parseCreateOAuthClient(body: unknown): OAuthClientDraft {
  assertResourceIdentity(body, undefined, OAUTH_CLIENT_TYPE);
  const {
    application_type,
    redirect_uris,
    post_logout_redirect_uris,
    first_party,
    id_token_signed_response_alg,
    ...attributes
  } = parseWith(createOAuthClientDocument, body).data.attributes;
  return {
    ...attributes,
    applicationType: application_type,
    redirectUris: redirect_uris,
    postLogoutRedirectUris: post_logout_redirect_uris,
    firstParty: first_party,
    idTokenSigningAlgorithm: id_token_signed_response_alg,
  };
}

/** PATCH /v1/admin/oauth-clients/{id}: any attribute but the types; an absent one stays. */
export const updateOAuthClientDocument = identifiedResourceDocument(
  closedObject(
    {
      name: v.optional(name),
      redirect_uris: v.optional(redirectUris),
      post_logout_redirect_uris: v.optional(postLogoutRedirectUris),
      scopes: v.optional(scopes),
      first_party: v.optional(firstParty),
      id_token_signed_response_alg: v.optional(idTokenSigningAlgorithm),
    },
    'attribute',
  ),
  OAUTH_CLIENT_TYPE,
);

export function parseUpdateOAuthClient(body: unknown, pathId: string): OAuthClientPatch {
  assertResourceIdentity(body, pathId, OAUTH_CLIENT_TYPE);
  const { redirect_uris, post_logout_redirect_uris, first_party, id_token_signed_response_alg, ...attributes } =
    parseWith(updateOAuthClientDocument, body).data.attributes;
  return {
    ...attributes,
    redirectUris: redirect_uris,
    postLogoutRedirectUris: post_logout_redirect_uris,
    firstParty: first_party,
    idTokenSigningAlgorithm: id_token_signed_response_alg,
  };
}
