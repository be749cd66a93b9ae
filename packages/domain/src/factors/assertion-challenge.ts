import { isJsonObject, type JsonObject } from '../shared/json.ts';

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * The challenge a WebAuthn assertion says it signs (`response.clientDataJSON.challenge`), read
 * without verifying anything: only to find the stored challenge it answers, which the ceremony's
 * verification then holds it to. Null when the response is not shaped as an assertion.
 */
export function assertionChallengeOf(response: JsonObject): string | null {
  const inner = response.response;
  const encoded = isJsonObject(inner) ? inner.clientDataJSON : undefined;
  if (typeof encoded !== 'string' || !BASE64URL.test(encoded) || encoded.length > 4096) return null;
  try {
    const binary = atob(encoded.replaceAll('-', '+').replaceAll('_', '/'));
    const clientData: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
    const challenge = isJsonObject(clientData) ? clientData.challenge : undefined;
    return typeof challenge === 'string' && challenge.length > 0 ? challenge : null;
  } catch {
    return null;
  }
}
