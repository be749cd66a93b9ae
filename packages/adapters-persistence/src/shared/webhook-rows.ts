import { sql, type Column } from 'drizzle-orm';
import type {
  NewWebhook,
  SealedText,
  Webhook,
  WebhookDisabledReason,
  WebhookEventSelector,
  WebhookSecretRotation,
} from '@uas/domain';

/** An endpoint as both dialects store it: each sealed secret as its key id and ciphertext columns. */
export interface WebhookRow {
  id: string;
  url: string;
  events: readonly WebhookEventSelector[];
  enabled: boolean;
  description: string;
  secretKey: string;
  secret: string;
  previousSecretKey: string | null;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
  cursor: number;
  failingSince: Date | null;
  disabledReason: WebhookDisabledReason | null;
  created: Date;
  updated: Date;
}

const sealed = (keyId: string, ciphertext: string): SealedText => ({ keyId, ciphertext });

/** An endpoint's secrets as sealed texts, from their key id and ciphertext columns. */
export const sealedSecretsOf = (
  row: Pick<WebhookRow, 'secretKey' | 'secret' | 'previousSecretKey' | 'previousSecret'>,
): Pick<Webhook, 'secret' | 'previousSecret'> => ({
  secret: sealed(row.secretKey, row.secret),
  previousSecret:
    row.previousSecretKey === null || row.previousSecret === null
      ? null
      : sealed(row.previousSecretKey, row.previousSecret),
});

export function webhookOf({
  secretKey,
  secret,
  previousSecretKey,
  previousSecret,
  cursor,
  ...row
}: WebhookRow): Webhook {
  return {
    ...row,
    ...sealedSecretsOf({ secretKey, secret, previousSecretKey, previousSecret }),
    cursor: Number(cursor),
  };
}

/** The columns of a new endpoint; the store sets its cursor. */
export function newWebhookRow({ secret, previousSecret, ...webhook }: NewWebhook): Omit<WebhookRow, 'cursor'> {
  return {
    ...webhook,
    secretKey: secret.keyId,
    secret: secret.ciphertext,
    previousSecretKey: previousSecret?.keyId ?? null,
    previousSecret: previousSecret?.ciphertext ?? null,
  };
}

/**
 * What a rotation sets, in one statement: the right-hand sides read the row as it was (after any
 * rotation that held it first), so each rotation keeps the secret it replaces.
 */
export const rotatedSecretColumns = (
  table: { secretKey: Column; secret: Column },
  rotation: WebhookSecretRotation,
) => ({
  previousSecretKey: sql<string>`${table.secretKey}`,
  previousSecret: sql<string>`${table.secret}`,
  previousSecretUntil: rotation.previousUntil,
  secretKey: rotation.secret.keyId,
  secret: rotation.secret.ciphertext,
  updated: rotation.now,
});
