import {
  ID_TOKEN_SIGNING_ALGORITHMS,
  OAUTH_APPLICATION_TYPES,
  OAUTH_CLIENT_TYPES,
  OPENID_SCOPES,
  type OAuthClient,
  type RevealedOAuthClient,
} from '@uas/domain';
import * as v from 'valibot';
import { timestamp } from './timestamp';
import { isoTimestamp } from './user.presenter';

export const OAUTH_CLIENTS_PATH = '/v1/admin/oauth-clients';

const described = <T extends v.GenericSchema>(schema: T, description: string) =>
  v.pipe(schema, v.description(description));

const oauthClientAttributes = {
  name: described(v.string(), 'What users see on the consent page and in their applications.'),
  client_id: described(v.string(), 'What the application sends as `client_id`: the resource id.'),
  type: described(v.picklist(OAUTH_CLIENT_TYPES), '`confidential` (holds a secret) or `public` (PKCE S256 alone).'),
  application_type: described(v.picklist(OAUTH_APPLICATION_TYPES), '`web` or `native` (RFC 8252 redirects).'),
  redirect_uris: described(v.array(v.string()), 'Where a code may be sent, matched exactly.'),
  post_logout_redirect_uris: described(v.array(v.string()), 'Where RP-initiated logout may lead.'),
  scopes: described(v.array(v.picklist(OPENID_SCOPES)), 'What the client may ask for; `openid` always.'),
  first_party: described(v.boolean(), 'Whether its users skip the consent page.'),
  id_token_signed_response_alg: described(
    v.nullable(v.picklist(ID_TOKEN_SIGNING_ALGORITHMS)),
    "How its ID tokens are signed; null: as the service's own tokens (`JWT_ALGORITHM`).",
  ),
  created: isoTimestamp(),
  updated: isoTimestamp(),
};

/** A client as the API shows it: never its secret, sealed or not. */
export const oauthClientResourceSchema = v.object({
  type: v.literal('oauth_clients'),
  id: v.pipe(v.string(), v.uuid()),
  attributes: v.object(oauthClientAttributes),
});

/** The same with the secret in clear: the answer of a creation and of a rotation only. */
const revealedOAuthClientResourceSchema = v.object({
  type: v.literal('oauth_clients'),
  id: v.pipe(v.string(), v.uuid()),
  attributes: v.object({
    ...oauthClientAttributes,
    client_secret: described(
      v.nullable(v.string()),
      "A confidential client's secret (the base64url of 32 random bytes), for `client_secret_basic` or `client_secret_post`; null for a public client. Shown in this answer only: store it now.",
    ),
  }),
});

export const oauthClientDocumentSchema = v.object({ data: oauthClientResourceSchema });
export const revealedOAuthClientDocumentSchema = v.object({ data: revealedOAuthClientResourceSchema });
export const oauthClientListDocumentSchema = v.object({
  data: v.array(oauthClientResourceSchema),
  meta: v.object({ total: described(v.pipe(v.number(), v.integer()), 'How many clients there are.') }),
});

function oauthClientResource(client: OAuthClient): v.InferOutput<typeof oauthClientResourceSchema> {
  return {
    type: 'oauth_clients',
    id: client.id,
    attributes: {
      name: client.name,
      client_id: client.id,
      type: client.type,
      application_type: client.applicationType,
      redirect_uris: [...client.redirectUris],
      post_logout_redirect_uris: [...client.postLogoutRedirectUris],
      scopes: [...client.scopes],
      first_party: client.firstParty,
      id_token_signed_response_alg: client.idTokenSigningAlgorithm,
      created: timestamp(client.created),
      updated: timestamp(client.updated),
    },
  };
}

export const oauthClientDocument = (client: OAuthClient): v.InferOutput<typeof oauthClientDocumentSchema> => ({
  data: oauthClientResource(client),
});

export function revealedOAuthClientDocument({
  client,
  secret,
}: RevealedOAuthClient): v.InferOutput<typeof revealedOAuthClientDocumentSchema> {
  const resource = oauthClientResource(client);
  return { data: { ...resource, attributes: { ...resource.attributes, client_secret: secret } } };
}

export const oauthClientListDocument = (
  clients: readonly OAuthClient[],
): v.InferOutput<typeof oauthClientListDocumentSchema> => ({
  data: clients.map(oauthClientResource),
  meta: { total: clients.length },
});
