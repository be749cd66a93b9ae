import type { SealedText } from '../secrets/secret.ts';
import type { SecretBox } from '../secrets/secret-box.ts';
import type { Webhook } from './webhook.ts';

/** The bytes of a signing secret: the HMAC-SHA256 key, as long as its output. */
const SECRET_BYTES = 32;

/**
 * A new signing secret in the Standard Webhooks format, which every Standard Webhooks library
 * takes as is: `whsec_` and the base64 of 32 random bytes. Web Crypto's random source is the
 * same in every runtime the domain runs in, and synchronous.
 */
export function generateWebhookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(SECRET_BYTES));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

/** The key ring's purpose the signing secrets are sealed under, each with its endpoint's id as context. */
export const WEBHOOK_SECRET_PURPOSE = 'webhook-secret';

/**
 * The secrets that sign a delivery to `webhook` at `now`, sealed: its current one, then the one a
 * rotation replaced while it still signs (24 hours), so a receiver verifies with either.
 */
export function sealedSigningSecrets(
  webhook: Pick<Webhook, 'secret' | 'previousSecret' | 'previousSecretUntil'>,
  now: Date,
): SealedText[] {
  const { secret, previousSecret, previousSecretUntil } = webhook;
  if (previousSecret === null || previousSecretUntil === null || previousSecretUntil.getTime() <= now.getTime()) {
    return [secret];
  }
  return [secret, previousSecret];
}

/**
 * The secrets a delivery to `webhook` is signed with at `now` (see sealedSigningSecrets), in clear
 * (`whsec_…`). For the delivery worker only: never log, store or answer them.
 */
export function webhookSigningSecrets(box: SecretBox, webhook: Webhook, now: Date): Promise<string[]> {
  return Promise.all(
    sealedSigningSecrets(webhook, now).map((sealed) => box.open(WEBHOOK_SECRET_PURPOSE, sealed, webhook.id)),
  );
}
