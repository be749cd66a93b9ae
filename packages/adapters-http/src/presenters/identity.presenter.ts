import { IDENTITY_PROVIDER_KINDS, type LinkedIdentity } from '@uas/domain';
import * as v from 'valibot';
import { timestamp } from './timestamp';
import { isoTimestamp } from './user.presenter';

const described = <T extends v.GenericSchema>(schema: T, description: string) =>
  v.pipe(schema, v.description(description));

/** A user's account at an identity provider, as the user and admins see it. */
export const identityResourceSchema = v.object({
  type: v.literal('identities'),
  id: v.pipe(v.string(), v.uuid()),
  attributes: v.object({
    provider: described(v.string(), "The provider's slug."),
    provider_kind: v.picklist(IDENTITY_PROVIDER_KINDS),
    subject: described(v.string(), "The provider's stable id for the account (`sub`; GitHub's numeric id)."),
    email: described(v.nullable(v.string()), 'The email the provider last gave; shown, never matched on.'),
    email_verified: described(v.boolean(), 'Whether the provider vouched for that email.'),
    created: isoTimestamp(),
    last_sign_in: described(v.nullable(isoTimestamp()), 'When the user last signed in through it; null: never.'),
  }),
});

export const identityListDocumentSchema = v.object({
  data: v.array(identityResourceSchema),
  meta: v.object({ total: described(v.pipe(v.number(), v.integer()), 'How many identities the user has.') }),
});

/** One identity as a resource, with its provider by slug and kind. */
function identityResource({ identity, provider }: LinkedIdentity): v.InferOutput<typeof identityResourceSchema> {
  return {
    type: 'identities',
    id: identity.id,
    attributes: {
      provider: provider.slug,
      provider_kind: provider.kind,
      subject: identity.subject,
      email: identity.email,
      email_verified: identity.emailVerified,
      created: timestamp(identity.created),
      last_sign_in: identity.lastSignIn && timestamp(identity.lastSignIn),
    },
  };
}

export const identityListDocument = (
  linked: readonly LinkedIdentity[],
): v.InferOutput<typeof identityListDocumentSchema> => ({
  data: linked.map(identityResource),
  meta: { total: linked.length },
});

/** One identity, as a link's completion answers it. */
export const identityDocumentSchema = v.object({ data: identityResourceSchema });

export const identityDocument = (linked: LinkedIdentity): v.InferOutput<typeof identityDocumentSchema> => ({
  data: identityResource(linked),
});
