import type { LinkRequest } from '@uas/domain';
import * as v from 'valibot';
import { timestamp } from './timestamp';

/** A link begun: where the user's browser goes next, and until when. */
export const linkRequestDocumentSchema = v.object({
  data: v.object({
    type: v.literal('identity_link_requests'),
    id: v.pipe(v.string(), v.uuid()),
    attributes: v.object({
      authorize_url: v.pipe(
        v.string(),
        v.description("Open it in the user's browser (a top-level navigation): it goes on to the provider. Once."),
      ),
      expires: v.pipe(v.string(), v.description('When the link can no longer be carried through (ISO 8601).')),
    }),
  }),
});

export const linkRequestDocument = (request: LinkRequest): v.InferOutput<typeof linkRequestDocumentSchema> => ({
  data: {
    type: 'identity_link_requests',
    id: request.id,
    attributes: { authorize_url: request.authorizeUrl, expires: timestamp(request.expires) },
  },
});
