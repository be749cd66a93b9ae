import type { paths } from './api-types';

type JsonOk<Op> = Op extends { responses: { 200: { content: { 'application/json': infer Body } } } } ? Body : never;
type JsonBody<Op> = Op extends { requestBody?: { content: { 'application/json': infer Body } } } ? Body : never;

/** What `/v1/admin/login` answers: the session record, or the second step it still asks for. */
type LoginAnswer = JsonOk<paths['/v1/admin/login']['post']>;

/** The second step a login asks for: its handle, the kinds of proof it takes, and for passkeys the request options. */
export type MfaChallenge = Extract<LoginAnswer['data'], { type: 'mfa_challenges' }>;

/** A one-time proof: a TOTP or recovery code, or a passkey's assertion (AuthenticationResponseJSON). */
export type SecondFactorProof = { code: string } | { credential: PasskeyAssertion };

/** A WebAuthn assertion as the browser library hands it over. */
export type PasskeyAssertion = JsonBody<paths['/v1/admin/login/passkey']['post']>['credential'];

/** A passwordless sign-in's (or a step-up's) WebAuthn challenge and its request options. */
export type PasskeyChallenge = JsonOk<paths['/v1/admin/login/passkey/options']['post']>['data'];
