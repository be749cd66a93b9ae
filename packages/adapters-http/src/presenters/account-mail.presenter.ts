import * as v from 'valibot';

/**
 * The answer of every endpoint that may send mail about an address (recover, resend): one and the
 * same document whether or not the address belongs to anyone.
 */
export const MAIL_REQUEST_ACCEPTED = {
  meta: { message: 'If an account uses this address and qualifies, a message is on its way to it.' },
} as const;

/** A document that says, in `meta.message`, what was accepted. */
export const messageDocumentSchema = v.object({ meta: v.object({ message: v.string() }) });

/** The answer of an admin's request that queues a message for a user. */
export const mailQueuedDocument = (message: string) => ({ meta: { message } });

/** A recovery link handed to an admin (`?delivery=link`): shown once, stored nowhere. */
export const recoveryLinkDocument = (userId: string, link: string) => ({
  data: { type: 'recovery-links', id: userId, attributes: { link } },
});

export const recoveryLinkDocumentSchema = v.object({
  data: v.object({
    type: v.literal('recovery-links'),
    id: v.pipe(v.string(), v.uuid(), v.description("The user's id.")),
    attributes: v.object({
      link: v.pipe(
        v.string(),
        v.description(
          'The page under PUBLIC_URL where the user sets a new password; single use, valid for RECOVERY_TOKEN_TTL_SECONDS.',
        ),
      ),
    }),
  }),
});
