import {
  browserSupportsWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
  WebAuthnError,
} from '@simplewebauthn/browser';
import type { PasskeyRegistration } from './factors-api';

/*
 * The browser's passkey ceremonies (navigator.credentials) through @simplewebauthn/browser, which
 * turns the server's JSON options into the binary ones the browser takes and its answer back into
 * JSON. The options come straight from the server; their wire types say less than the library's
 * (plain strings for enums), hence the casts at this one boundary.
 */

export const passkeysSupported = (): boolean => browserSupportsWebAuthn();

/** Asks the browser for an assertion (sign-in or a proof) with the server's request options. */
export async function assertPasskey(options: unknown): Promise<Record<string, unknown>> {
  const optionsJSON = options as PublicKeyCredentialRequestOptionsJSON;
  return { ...(await startAuthentication({ optionsJSON })) };
}

/** Asks the browser to create a passkey with the server's creation options. */
export async function createPasskey(options: unknown): Promise<PasskeyRegistration> {
  const optionsJSON = options as PublicKeyCredentialCreationOptionsJSON;
  return (await startRegistration({ optionsJSON })) as unknown as PasskeyRegistration;
}

/** Whether an error is the browser's, not the server's: the person cancelled, or no passkey answered. */
export function isPasskeyRefusal(error: unknown): boolean {
  return error instanceof WebAuthnError || (error instanceof DOMException && error.name !== 'AbortError');
}

/** What to tell the admin when the browser's ceremony failed. */
export function passkeyProblem(error: unknown): string {
  if (error instanceof WebAuthnError && error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED')
    return 'This passkey is already registered.';
  return 'No passkey was used: the request was cancelled, timed out, or no passkey of this site is available.';
}
