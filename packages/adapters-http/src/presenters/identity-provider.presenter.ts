import { IDENTITY_PROVIDER_KINDS, type IdentityProvider } from '@uas/domain';
import * as v from 'valibot';
import { timestamp } from './timestamp';
import { isoTimestamp } from './user.presenter';

export const IDENTITY_PROVIDERS_PATH = '/v1/admin/identity-providers';

const described = <T extends v.GenericSchema>(schema: T, description: string) =>
  v.pipe(schema, v.description(description));

/** A provider as the API shows it: never its client secret, only whether one is set. */
export const identityProviderResourceSchema = v.object({
  type: v.literal('identity_providers'),
  id: v.pipe(v.string(), v.uuid()),
  attributes: v.object({
    slug: described(v.string(), 'What the sign-in URLs name it by: `/v1/oauth/{slug}/…`.'),
    kind: described(v.picklist(IDENTITY_PROVIDER_KINDS), 'A generic OpenID Connect provider, or a preset.'),
    issuer: described(
      v.nullable(v.string()),
      "Where discovery starts: required for `oidc`; for a preset, an override of its provider's own, or null.",
    ),
    client_id: v.string(),
    client_secret_set: described(
      v.boolean(),
      'Whether a client secret is stored (sealed). The secret itself is never answered.',
    ),
    scopes: described(v.array(v.string()), 'Scopes asked for beyond those the kind always asks.'),
    enabled: described(v.boolean(), 'Whether users may sign in with it.'),
    auto_link: described(
      v.boolean(),
      "Whether a first sign-in links to the user with the same email, when the provider vouches it verified and the user's address is verified too.",
    ),
    callback_url: described(
      v.string(),
      'The redirect URI to register at the provider: PUBLIC_URL + `v1/oauth/{slug}/callback`.',
    ),
    created: isoTimestamp(),
    updated: isoTimestamp(),
  }),
});

export const identityProviderDocumentSchema = v.object({ data: identityProviderResourceSchema });
export const identityProviderListDocumentSchema = v.object({
  data: v.array(identityProviderResourceSchema),
  meta: v.object({ total: described(v.pipe(v.number(), v.integer()), 'How many providers there are.') }),
});

/** What a resource needs beside the record: the callback URL built on PUBLIC_URL. */
export type CallbackUrlOf = (provider: IdentityProvider) => string;

function identityProviderResource(
  provider: IdentityProvider,
  callbackUrl: CallbackUrlOf,
): v.InferOutput<typeof identityProviderResourceSchema> {
  return {
    type: 'identity_providers',
    id: provider.id,
    attributes: {
      slug: provider.slug,
      kind: provider.kind,
      issuer: provider.issuer,
      client_id: provider.clientId,
      client_secret_set: provider.clientSecret !== null,
      scopes: [...provider.scopes],
      enabled: provider.enabled,
      auto_link: provider.autoLink,
      callback_url: callbackUrl(provider),
      created: timestamp(provider.created),
      updated: timestamp(provider.updated),
    },
  };
}

export const identityProviderDocument = (
  provider: IdentityProvider,
  callbackUrl: CallbackUrlOf,
): v.InferOutput<typeof identityProviderDocumentSchema> => ({
  data: identityProviderResource(provider, callbackUrl),
});

export const identityProviderListDocument = (
  providers: readonly IdentityProvider[],
  callbackUrl: CallbackUrlOf,
): v.InferOutput<typeof identityProviderListDocumentSchema> => ({
  data: providers.map((provider) => identityProviderResource(provider, callbackUrl)),
  meta: { total: providers.length },
});
