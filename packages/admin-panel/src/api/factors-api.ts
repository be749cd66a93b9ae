import { type AdminSession, type paths, type SecondStepAnswer, unwrap } from '@uas/client';

type Json<Op, Status extends number> = Op extends {
  responses: { [S in Status]: { content: { 'application/json': infer Body } } };
}
  ? Body
  : never;
type JsonBody<Op> = Op extends { requestBody?: { content: { 'application/json': infer Body } } } ? Body : never;

/** The admin's own factors and how many recovery codes are left (`GET /v1/admin/me/factors`). */
export type FactorList = Json<paths['/v1/admin/me/factors']['get'], 200>;
export type FactorResource = FactorList['data'][number];
export type FactorKind = FactorResource['attributes']['kind'];
/** A factor just enrolled, pending, with what is shown once: the TOTP secret and QR code, or the passkey's creation options. */
export type EnrolledFactor = Json<paths['/v1/admin/me/factors']['post'], 201>['data'];
/** A factor just verified, active; on the account's first active factor, with its recovery codes. */
export type VerifiedFactor = Json<paths['/v1/admin/me/factors/{id}/verify']['post'], 200>['data'];
type Verification = JsonBody<paths['/v1/admin/me/factors/{id}/verify']['post']>;
/** A new passkey's attestation (RegistrationResponseJSON), as the browser library hands it over. */
export type PasskeyRegistration = Extract<Verification, { credential: unknown }>['credential'];

/**
 * The signed-in admin's second factors. Enrolling one beside an active one, removing one and
 * regenerating the recovery codes need a proof: a recent second step of this session's login, or
 * `proof` sent along.
 */
export class FactorsApi {
  constructor(private readonly session: AdminSession) {}

  async list(signal?: AbortSignal): Promise<FactorList> {
    return (await unwrap(this.session.api.GET('/v1/admin/me/factors', { signal }))).data;
  }

  /** Once a factor is active, enrolling another needs a proof too (see remove()). */
  async enrol(kind: FactorKind, proof?: SecondStepAnswer): Promise<EnrolledFactor> {
    const body = { data: { type: 'factors' as const, attributes: { kind } }, ...proof };
    return (await unwrap(this.session.api.POST('/v1/admin/me/factors', { body }))).data.data;
  }

  async verify(id: string, proof: { code: string } | { credential: PasskeyRegistration }): Promise<VerifiedFactor> {
    const call = this.session.api.POST('/v1/admin/me/factors/{id}/verify', { params: { path: { id } }, body: proof });
    return (await unwrap(call)).data.data;
  }

  async remove(id: string, proof?: SecondStepAnswer): Promise<void> {
    const call = this.session.api.DELETE('/v1/admin/me/factors/{id}', {
      params: { path: { id } },
      ...(proof ? { body: proof } : {}),
    });
    await unwrap(call);
  }

  /** Replaces every recovery code; answers the new ones, shown this once. */
  async regenerateRecoveryCodes(proof?: SecondStepAnswer): Promise<string[]> {
    const call = this.session.api.POST('/v1/admin/me/recovery-codes', proof ? { body: proof } : {});
    return [...(await unwrap(call)).data.data.attributes.recovery_codes];
  }
}
