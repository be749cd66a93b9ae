import type { PasskeyCredential } from '../factors/factor.ts';
import type { OneTimeCodes } from '../factors/one-time-codes.ts';
import type { CeremonyOptions, PasskeyCeremonies, VerifiedAssertion } from '../factors/passkey-ceremonies.ts';
import { SECOND_FACTOR_RULES } from '../factors/second-factor-rules.ts';
import { isJsonObject, type JsonObject } from '../shared/json.ts';
import { sha256Hex } from '../shared/sha256.ts';

const { periodSeconds, windowSteps, digits } = SECOND_FACTOR_RULES.totp;
const stepAt = (at: Date) => Math.floor(at.getTime() / 1000 / periodSeconds);
const base64url = (text: string) => btoa(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');

/**
 * A stand-in for otplib in domain tests: a step's code is digits of a SHA-256 over the secret and
 * the step, so codes differ per secret and per step, and the window is RFC 6238's. The real
 * adapter (and real codes) are tested in the server.
 */
export class FakeOneTimeCodes implements OneTimeCodes {
  private secrets = 0;
  private recoveryCodes = 0;

  newSecret(): string {
    this.secrets += 1;
    return `SECRET${this.secrets.toString().padStart(4, '0')}`;
  }
  uri(secret: string, accountName: string, issuer: string): string {
    return `otpauth://totp/${encodeURIComponent(issuer)}:${encodeURIComponent(accountName)}?secret=${secret}`;
  }
  async qrSvg(uri: string): Promise<string> {
    return `<svg xmlns="http://www.w3.org/2000/svg"><desc>${uri.length}</desc></svg>`;
  }
  stepOf(secret: string, code: string, now: Date): number | null {
    const current = stepAt(now);
    for (let step = current - windowSteps; step <= current + windowSteps; step += 1) {
      if (this.codeOfStep(secret, step) === code) return step;
    }
    return null;
  }
  newRecoveryCode(): string {
    this.recoveryCodes += 1;
    return `RC${this.recoveryCodes.toString().padStart(SECOND_FACTOR_RULES.recoveryCodes.length - 2, '0')}`;
  }

  /** The code an authenticator app would show at `at`. */
  codeAt(secret: string, at: Date): string {
    return this.codeOfStep(secret, stepAt(at));
  }

  private codeOfStep(secret: string, step: number): string {
    const value = Number.parseInt(sha256Hex(`${secret}:${step}`).slice(0, 12), 16);
    return (value % 10 ** digits).toString().padStart(digits, '0');
  }
}

/**
 * A stand-in for @simplewebauthn/server with a matching fake authenticator (`assertion`): a
 * "signature" names the credential's public key, the challenge and the counter, and verifies only
 * for those. It proves the domain's rules; the real ceremonies and the software authenticator
 * with real P-256 signatures are tested in the server.
 */
export class FakePasskeyCeremonies implements PasskeyCeremonies {
  private challenges = 0;

  async registrationOptions(input: { userId: string; userName: string }): Promise<CeremonyOptions> {
    const challenge = this.nextChallenge();
    return { challenge, options: { challenge, user: { id: input.userId, name: input.userName } } };
  }
  async verifyRegistration(response: JsonObject, expectedChallenge: string): Promise<PasskeyCredential | null> {
    const { id, challenge, backedUp } = response;
    if (typeof id !== 'string' || challenge !== expectedChallenge) return null;
    return { id, publicKey: `public-key-of-${id}`, counter: 0, transports: ['internal'], backedUp: backedUp === true };
  }
  async authenticationOptions(allow: readonly PasskeyCredential[]): Promise<CeremonyOptions> {
    const challenge = this.nextChallenge();
    return { challenge, options: { challenge, allowCredentials: allow.map(({ id }) => ({ id, type: 'public-key' })) } };
  }
  credentialIdOf(response: JsonObject): string | null {
    return typeof response.id === 'string' ? response.id : null;
  }
  async verifyAuthentication(
    response: JsonObject,
    expectedChallenge: string,
    credential: PasskeyCredential,
  ): Promise<VerifiedAssertion | null> {
    const inner = isJsonObject(response.response) ? response.response : {};
    const signature = typeof inner.signature === 'string' ? inner.signature.split('|') : [];
    const [publicKey, challenge, counter, userVerified] = signature;
    if (publicKey !== credential.publicKey || challenge !== expectedChallenge) return null;
    return { counter: Number(counter), userVerified: userVerified === 'uv' };
  }

  /** What an authenticator holding `credential` answers to `challenge`. */
  static assertion(
    credential: PasskeyCredential,
    challenge: string,
    { counter = credential.counter + 1, userVerified = true } = {},
  ): JsonObject {
    const clientDataJSON = base64url(JSON.stringify({ type: 'webauthn.get', challenge }));
    const signature = [credential.publicKey, challenge, String(counter), userVerified ? 'uv' : 'up'].join('|');
    return { id: credential.id, rawId: credential.id, type: 'public-key', response: { clientDataJSON, signature } };
  }

  private nextChallenge(): string {
    this.challenges += 1;
    return `challenge-${this.challenges.toString().padStart(6, '0')}`;
  }
}
