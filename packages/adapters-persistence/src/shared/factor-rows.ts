import { and, eq, isNotNull, isNull, lt, or, type Column, type Placeholder, type SQL } from 'drizzle-orm';
import type { Factor, FactorActivation, FactorKind, PasskeyCredential } from '@uas/domain';
import { accountColumns, accountOf } from './account-columns';

/** A factor as both dialects' `factors` table holds it. */
export interface FactorRow {
  id: string;
  userId: string | null;
  adminId: string | null;
  kind: FactorKind;
  created: Date;
  activated: Date | null;
  lastUsed: Date | null;
  totpKeyId: string | null;
  totpCiphertext: string | null;
  totpLastStep: number | null;
  webauthnChallenge: string | null;
  credentialId: string | null;
  credentialPublicKey: string | null;
  credentialCounter: number | null;
  credentialTransports: readonly string[] | null;
  credentialBackedUp: boolean | null;
}

/** The credential's columns, all null when there is none. */
const credentialColumns = (credential: PasskeyCredential | null) => ({
  credentialId: credential?.id ?? null,
  credentialPublicKey: credential?.publicKey ?? null,
  credentialCounter: credential?.counter ?? null,
  credentialTransports: credential?.transports ?? null,
  credentialBackedUp: credential?.backedUp ?? null,
});

/**
 * The columns an activation sets: the credential of a passkey, or the TOTP step its enrolment
 * code used (so that code is refused from then on) with `at` as the factor's last use.
 */
export const activationColumns = (at: Date, { credential, totpStep }: FactorActivation) => ({
  activated: at,
  webauthnChallenge: null,
  ...(credential ? credentialColumns(credential) : {}),
  ...(totpStep === undefined ? {} : { totpLastStep: totpStep, lastUsed: at }),
});

export function factorRow({
  id,
  owner,
  subjectId,
  kind,
  created,
  activated,
  lastUsed,
  totp,
  webauthn,
}: Factor): FactorRow {
  return {
    id,
    ...accountColumns(owner, subjectId),
    kind,
    created,
    activated,
    lastUsed,
    totpKeyId: totp?.secret.keyId ?? null,
    totpCiphertext: totp?.secret.ciphertext ?? null,
    totpLastStep: totp?.lastStep ?? null,
    webauthnChallenge: webauthn?.challenge ?? null,
    ...credentialColumns(webauthn?.credential ?? null),
  };
}

export function factorOf(row: FactorRow): Factor {
  const { id, kind, created, activated, lastUsed } = row;
  const credential: PasskeyCredential | null =
    row.credentialId === null
      ? null
      : {
          id: row.credentialId,
          publicKey: row.credentialPublicKey!,
          counter: row.credentialCounter!,
          transports: row.credentialTransports ?? [],
          backedUp: row.credentialBackedUp!,
        };
  return {
    id,
    ...accountOf(row),
    kind,
    created,
    activated,
    lastUsed,
    totp:
      kind === 'totp'
        ? { secret: { keyId: row.totpKeyId!, ciphertext: row.totpCiphertext! }, lastStep: row.totpLastStep }
        : null,
    webauthn: kind === 'webauthn' ? { challenge: row.webauthnChallenge, credential } : null,
  };
}

interface FactorColumns {
  id: Column;
  kind: Column;
  activated: Column;
  totpLastStep: Column;
}

/** The TOTP replay guard's WHERE: the active TOTP factor `id`, if `step` is later than its last. */
export const totpStepUsable = (
  t: FactorColumns,
  id: string | Placeholder,
  step: number | Placeholder,
): SQL | undefined =>
  and(eq(t.id, id), eq(t.kind, 'totp'), isNotNull(t.activated), or(isNull(t.totpLastStep), lt(t.totpLastStep, step)));
