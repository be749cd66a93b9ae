import {
  CLIENT_ID_MAX_LENGTH,
  CLIENT_SECRET_MAX_LENGTH,
  IDENTITY_PROVIDER_KINDS,
  IDENTITY_PROVIDER_SLUG,
  SCOPE_MAX_LENGTH,
  SCOPES_MAX_COUNT,
  type IdentityProviderDraft,
  type IdentityProviderPatch,
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

export const IDENTITY_PROVIDER_TYPE = 'identity_providers';

// Shapes only: the domain's rules (identity-provider.rules.ts) judge the values, each with its pointer.
const slug = v.pipe(
  text(),
  v.description('Lower-case letters, digits and inner dashes, 1 to 40: the sign-in URLs name the provider by it.'),
  v.metadata({ pattern: IDENTITY_PROVIDER_SLUG.source }),
);
const kind = v.pipe(
  text(),
  v.description('`oidc` (any OpenID Connect provider, by its issuer) or a preset.'),
  v.metadata({ enum: [...IDENTITY_PROVIDER_KINDS] }),
);
const issuer = v.pipe(
  v.nullable(text()),
  v.description(
    'The issuer discovery starts from, exactly as the provider writes it: required for `oidc`, an optional override for presets (GitHub Enterprise, a Microsoft tenant). https unless IDENTITY_PROVIDER_ALLOW_HTTP=true; no credentials, query or fragment.',
  ),
);
const clientId = v.pipe(
  text(),
  v.description('The client id the provider issued.'),
  v.metadata({ minLength: 1, maxLength: CLIENT_ID_MAX_LENGTH }),
);
const clientSecret = v.pipe(
  v.nullable(text()),
  v.description(
    'Write-only: stored sealed, never answered. Required for presets (for Apple, the client secret JWT you generated); optional for `oidc` (a public client). On PATCH it replaces the stored one; null removes it (`oidc` only).',
  ),
  v.metadata({ minLength: 1, maxLength: CLIENT_SECRET_MAX_LENGTH }),
);
const scopes = v.pipe(
  v.array(text(), 'must be an array'),
  v.description(
    `Scopes to ask for beyond those the kind always asks (\`openid email profile\`; GitHub \`read:user user:email\`): at most ${SCOPES_MAX_COUNT}, each 1 to ${SCOPE_MAX_LENGTH} characters without spaces.`,
  ),
);
const enabled = v.pipe(v.boolean('must be true or false'), v.description('Whether users may sign in with it.'));
const autoLink = v.pipe(
  v.boolean('must be true or false'),
  v.description(
    "Whether a first sign-in may link to the user with the same email: only when the provider vouches it verified and the user's address is verified.",
  ),
);

/** POST /v1/admin/identity-providers. */
export const createIdentityProviderDocument = resourceDocument(
  closedObject(
    {
      slug,
      kind,
      issuer: v.optional(issuer),
      client_id: clientId,
      client_secret: v.optional(clientSecret),
      scopes: v.optional(scopes),
      enabled: v.optional(enabled),
      auto_link: v.optional(autoLink),
    },
    'attribute',
  ),
  IDENTITY_PROVIDER_TYPE,
);

// The wire's snake_case attributes are the domain's camelCase ones; absent stays absent (undefined).

export function parseCreateIdentityProvider(body: unknown): IdentityProviderDraft {
  assertResourceIdentity(body, undefined, IDENTITY_PROVIDER_TYPE);
  const { client_id, client_secret, auto_link, ...attributes } = parseWith(createIdentityProviderDocument, body).data
    .attributes;
  return { ...attributes, clientId: client_id, clientSecret: client_secret, autoLink: auto_link };
}

/** PATCH /v1/admin/identity-providers/{id}: any attribute but the slug and kind; an absent one stays. */
export const updateIdentityProviderDocument = identifiedResourceDocument(
  closedObject(
    {
      issuer: v.optional(issuer),
      client_id: v.optional(clientId),
      client_secret: v.optional(clientSecret),
      scopes: v.optional(scopes),
      enabled: v.optional(enabled),
      auto_link: v.optional(autoLink),
    },
    'attribute',
  ),
  IDENTITY_PROVIDER_TYPE,
);

export function parseUpdateIdentityProvider(body: unknown, pathId: string): IdentityProviderPatch {
  assertResourceIdentity(body, pathId, IDENTITY_PROVIDER_TYPE);
  const { client_id, client_secret, auto_link, ...attributes } = parseWith(updateIdentityProviderDocument, body).data
    .attributes;
  return { ...attributes, clientId: client_id, clientSecret: client_secret, autoLink: auto_link };
}
