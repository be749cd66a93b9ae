import { describe, expect, it } from 'vitest';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type WebAuthnCredential,
} from '@simplewebauthn/server';
import { SoftwareAuthenticator } from '../../../../scripts/software-authenticator';

const RP_ID = 'localhost';
const ORIGIN = 'http://localhost:3002';

async function registered(authenticator: SoftwareAuthenticator) {
  const options = await generateRegistrationOptions({
    rpName: 'Test',
    rpID: RP_ID,
    userName: 'ada@example.com',
    userID: new TextEncoder().encode('user-1'),
    attestationType: 'none',
  });
  const response = authenticator.register(options, ORIGIN);
  const result = await verifyRegistrationResponse({
    response,
    expectedChallenge: options.challenge,
    expectedOrigin: ORIGIN,
    expectedRPID: RP_ID,
  });
  return { options, response, result };
}

async function assertion(authenticator: SoftwareAuthenticator, credential: WebAuthnCredential, counter?: number) {
  const options = await generateAuthenticationOptions({ rpID: RP_ID, allowCredentials: [] });
  const response = authenticator.authenticate(options, ORIGIN, counter === undefined ? {} : { counter });
  const verify = (changed = response) =>
    verifyAuthenticationResponse({
      response: changed,
      expectedChallenge: options.challenge,
      expectedOrigin: ORIGIN,
      expectedRPID: RP_ID,
      credential,
    });
  return { response, verify };
}

/** The verifier refuses by throwing (a wrong challenge, origin or RP) or by answering unverified (a bad signature). */
const refused = (verification: Promise<{ verified: boolean }>) =>
  verification.then(
    (result) => !result.verified,
    () => true,
  );

describe('SoftwareAuthenticator', () => {
  it('registers a passkey that @simplewebauthn/server verifies: none attestation, ES256, user verified', async () => {
    const { response, result } = await registered(new SoftwareAuthenticator());
    expect(result.verified).toBe(true);
    expect(result.registrationInfo?.fmt).toBe('none');
    expect(result.registrationInfo?.credential.id).toBe(response.id);
    expect(result.registrationInfo?.userVerified).toBe(true);
    expect(result.registrationInfo?.credentialBackedUp).toBe(false);
  });

  it('signs an assertion the verifier accepts, naming the user handle and a growing counter', async () => {
    const authenticator = new SoftwareAuthenticator();
    const { result } = await registered(authenticator);
    const credential = result.registrationInfo!.credential;
    const first = await assertion(authenticator, credential);
    expect(first.response.response.userHandle).toBe(Buffer.from('user-1').toString('base64url'));
    const verified = await first.verify();
    expect(verified.verified).toBe(true);
    expect(verified.authenticationInfo.newCounter).toBe(1);
    const second = await assertion(authenticator, { ...credential, counter: 1 });
    expect((await second.verify()).authenticationInfo.newCounter).toBe(2);
  });

  it('refuses a tampered assertion: another challenge, another origin, a changed signature or data', async () => {
    const authenticator = new SoftwareAuthenticator();
    const credential = (await registered(authenticator)).result.registrationInfo!.credential;
    const { response, verify } = await assertion(authenticator, credential);
    const flip = (text: string, at: number) => {
      const bytes = Buffer.from(text, 'base64url');
      bytes[at] = (bytes[at] ?? 0) ^ 1;
      return bytes.toString('base64url');
    };
    const clientData = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString());
    const withClientData = (changes: object) => ({
      ...response,
      response: {
        ...response.response,
        clientDataJSON: Buffer.from(JSON.stringify({ ...clientData, ...changes })).toString('base64url'),
      },
    });
    const tampered = [
      { ...response, response: { ...response.response, signature: flip(response.response.signature, 10) } },
      {
        ...response,
        response: { ...response.response, authenticatorData: flip(response.response.authenticatorData, 36) },
      },
      withClientData({ challenge: Buffer.from('another challenge').toString('base64url') }),
      withClientData({ origin: 'https://evil.example' }),
    ];
    for (const changed of tampered) expect(await refused(verify(changed))).toBe(true);
    expect((await verify()).verified).toBe(true);
  });

  it('refuses a registration made for another challenge, RP or origin', async () => {
    const authenticator = new SoftwareAuthenticator();
    const options = await generateRegistrationOptions({ rpName: 'Test', rpID: RP_ID, userName: 'ada' });
    const response = authenticator.register(options, ORIGIN);
    const verify = (changes: Partial<Parameters<typeof verifyRegistrationResponse>[0]>) =>
      verifyRegistrationResponse({
        response,
        expectedChallenge: options.challenge,
        expectedOrigin: ORIGIN,
        expectedRPID: RP_ID,
        ...changes,
      });
    expect(await refused(verify({ expectedChallenge: 'another-challenge' }))).toBe(true);
    expect(await refused(verify({ expectedRPID: 'example.com' }))).toBe(true);
    expect(await refused(verify({ expectedOrigin: 'https://evil.example' }))).toBe(true);
    expect((await verify({})).verified).toBe(true);
  });

  it('as a synced passkey, reports backup state and a counter that stays 0', async () => {
    const authenticator = new SoftwareAuthenticator({ backedUp: true });
    const { result } = await registered(authenticator);
    expect(result.registrationInfo?.credentialBackedUp).toBe(true);
    expect(result.registrationInfo?.credentialDeviceType).toBe('multiDevice');
    const credential = result.registrationInfo!.credential;
    for (let round = 0; round < 2; round++) {
      const verified = await (await assertion(authenticator, credential)).verify();
      expect(verified.authenticationInfo.newCounter).toBe(0);
      expect(verified.authenticationInfo.credentialBackedUp).toBe(true);
    }
  });

  it('refuses to register again where the options exclude a credential it holds', async () => {
    const authenticator = new SoftwareAuthenticator();
    const { response } = await registered(authenticator);
    const options = await generateRegistrationOptions({
      rpName: 'Test',
      rpID: RP_ID,
      userName: 'ada',
      excludeCredentials: [{ id: response.id }],
    });
    expect(() => authenticator.register(options, ORIGIN)).toThrow(/InvalidStateError/);
  });
});
