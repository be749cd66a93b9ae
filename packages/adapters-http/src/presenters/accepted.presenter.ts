import * as v from 'valibot';

/**
 * What a request that sends mail answers (202): the same document whatever the address, so the
 * answer never tells whether it belongs to an account.
 */
export const acceptedDocumentSchema = v.object({
  meta: v.object({
    message: v.pipe(v.string(), v.description('What happens next, the same for every address.')),
  }),
});

export const acceptedDocument = (message: string): v.InferOutput<typeof acceptedDocumentSchema> => ({
  meta: { message },
});
