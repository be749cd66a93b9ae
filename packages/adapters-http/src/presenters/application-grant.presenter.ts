import type { ApplicationGrant } from '@uas/domain';
import * as v from 'valibot';
import { timestamp } from './timestamp';
import { isoTimestamp } from './user.presenter';

export const APPLICATIONS_PATH = '/v1/users/me/applications';

const described = <T extends v.GenericSchema>(schema: T, description: string) =>
  v.pipe(schema, v.description(description));

/** An application the user let sign them in: its client, and the scopes its grants gave. */
export const applicationGrantResourceSchema = v.object({
  type: v.literal('application_grants'),
  id: described(v.string(), 'The application (its client id): what revoking names.'),
  attributes: v.object({
    client_id: v.string(),
    client_name: described(v.nullable(v.string()), "The application's name; null while it is being deleted."),
    scopes: described(v.array(v.string()), 'The scopes granted, by any sign-in.'),
    created: described(v.nullable(isoTimestamp()), 'When it was first granted.'),
  }),
});

export const applicationGrantListDocumentSchema = v.object({
  data: v.array(applicationGrantResourceSchema),
  meta: v.object({ total: described(v.pipe(v.number(), v.integer()), 'How many there are.') }),
});

const applicationGrantResource = (grant: ApplicationGrant): v.InferOutput<typeof applicationGrantResourceSchema> => ({
  type: 'application_grants',
  id: grant.id,
  attributes: {
    client_id: grant.clientId,
    client_name: grant.clientName,
    scopes: [...grant.scopes],
    created: grant.created && timestamp(grant.created),
  },
});

export const applicationGrantListDocument = (
  grants: readonly ApplicationGrant[],
): v.InferOutput<typeof applicationGrantListDocumentSchema> => ({
  data: grants.map(applicationGrantResource),
  meta: { total: grants.length },
});
