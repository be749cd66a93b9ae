import { FACTOR_KINDS, type Activation, type Enrolment, type Factor, type JsonObject } from '@uas/domain';
import * as v from 'valibot';
import { timestamp } from './timestamp';

const described = <T extends v.GenericSchema>(schema: T, description: string) =>
  v.pipe(schema, v.description(description));

const attributes = {
  kind: described(v.picklist(FACTOR_KINDS), '`totp`: an authenticator app; `webauthn`: a passkey or security key.'),
  status: described(v.picklist(['pending', 'active']), 'Pending until verified; only active factors count at sign-in.'),
  created: described(v.string(), 'When it was enrolled (ISO 8601).'),
  last_used: described(v.nullable(v.string()), 'When it last proved a sign-in or a step-up (ISO 8601), or null.'),
};

const factorResourceSchema = v.object({
  type: v.literal('factors'),
  id: v.string(),
  attributes: v.object(attributes),
});

export const factorListDocumentSchema = v.object({
  data: v.array(factorResourceSchema),
  meta: v.object({ recovery_codes_left: described(v.number(), 'Unused recovery codes of the account.') }),
});

/** What an enrolment answers once: the TOTP secret and its QR code, or the passkey creation options. */
export const enrolmentDocumentSchema = v.object({
  data: v.object({
    ...factorResourceSchema.entries,
    attributes: v.object({
      ...attributes,
      secret: v.optional(described(v.string(), 'TOTP: the base32 secret, for typing into an app. Shown once.')),
      otpauth_uri: v.optional(described(v.string(), 'TOTP: the `otpauth://` URI the QR code holds. Shown once.')),
      qr_svg: v.optional(described(v.string(), 'TOTP: the QR code as an SVG document. Shown once.')),
      webauthn: v.optional(
        described(
          v.record(v.string(), v.unknown()),
          'WebAuthn: PublicKeyCredentialCreationOptionsJSON for the browser.',
        ),
      ),
    }),
  }),
});

export const activationDocumentSchema = v.object({
  data: v.object({
    ...factorResourceSchema.entries,
    attributes: v.object({
      ...attributes,
      recovery_codes: v.optional(
        described(v.array(v.string()), "The account's recovery codes, on its first active factor only. Shown once."),
      ),
    }),
  }),
});

export const recoveryCodesDocumentSchema = v.object({
  data: v.object({
    type: v.literal('recovery_codes'),
    id: v.string(),
    attributes: v.object({
      recovery_codes: described(v.array(v.string()), 'The new set: every earlier code stops working. Shown once.'),
    }),
  }),
});

type FactorResource = v.InferOutput<typeof factorResourceSchema>;

function factorResource(factor: Factor): FactorResource {
  return {
    type: 'factors',
    id: factor.id,
    attributes: {
      kind: factor.kind,
      status: factor.activated ? 'active' : 'pending',
      created: timestamp(factor.created),
      last_used: factor.lastUsed && timestamp(factor.lastUsed),
    },
  };
}

export const factorListDocument = ({
  factors,
  recoveryCodesLeft,
}: {
  factors: Factor[];
  recoveryCodesLeft: number;
}) => ({
  data: factors.map(factorResource),
  meta: { recovery_codes_left: recoveryCodesLeft },
});

export function enrolmentDocument({ factor, totp, webauthn }: Enrolment) {
  const resource = factorResource(factor);
  const extra: { secret?: string; otpauth_uri?: string; qr_svg?: string; webauthn?: JsonObject } = totp
    ? { secret: totp.secret, otpauth_uri: totp.uri, qr_svg: totp.qrSvg }
    : { webauthn: webauthn ?? {} };
  return { data: { ...resource, attributes: { ...resource.attributes, ...extra } } };
}

export function activationDocument({ factor, recoveryCodes }: Activation) {
  const resource = factorResource(factor);
  const extra = recoveryCodes ? { recovery_codes: [...recoveryCodes] } : {};
  return { data: { ...resource, attributes: { ...resource.attributes, ...extra } } };
}

export const recoveryCodesDocument = (accountId: string, codes: readonly string[]) => ({
  data: { type: 'recovery_codes' as const, id: accountId, attributes: { recovery_codes: [...codes] } },
});
