import { describe, expect, it } from 'vitest';
import type { JsonObject } from '@uas/domain';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { SoftwareAuthenticator } from '../../../../scripts/software-authenticator';
import { SimpleWebAuthnCeremonies } from './webauthn-ceremonies';

const ORIGIN = 'http://localhost:3002';
const ceremonies = new SimpleWebAuthnCeremonies({ rpId: 'localhost', rpName: 'Test', origins: [ORIGIN] });
const json = (value: object) => value as unknown as JsonObject;

async function enrol(authenticator: SoftwareAuthenticator, origin = ORIGIN) {
  const { options, challenge } = await ceremonies.registrationOptions({
    userId: 'user-1',
    userName: 'ada@example.com',
    displayName: 'Ada',
    exclude: [],
  });
  const response = authenticator.register(options as unknown as PublicKeyCredentialCreationOptionsJSON, origin);
  return { options, challenge, response, credential: await ceremonies.verifyRegistration(json(response), challenge) };
}

describe('SimpleWebAuthnCeremonies', () => {
  it('asks for a discoverable ES256 passkey with no attestation and preferred user verification, for the RP', async () => {
    const { options } = await ceremonies.registrationOptions({
      userId: 'user-1',
      userName: 'ada@example.com',
      displayName: 'Ada',
      exclude: [{ id: 'abc', publicKey: 'x', counter: 0, transports: ['usb'], backedUp: false }],
    });
    expect(options).toMatchObject({
      rp: { id: 'localhost', name: 'Test' },
      user: { id: Buffer.from('user-1').toString('base64url'), name: 'ada@example.com', displayName: 'Ada' },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      excludeCredentials: [{ id: 'abc', type: 'public-key', transports: ['usb'] }],
    });
  });

  it('verifies a registration, then an assertion, telling the counter and user verification', async () => {
    const authenticator = new SoftwareAuthenticator();
    const { credential, response } = await enrol(authenticator);
    expect(credential).toMatchObject({ id: response.id, counter: 0, transports: ['usb'], backedUp: false });
    const { options, challenge } = await ceremonies.authenticationOptions([credential!]);
    expect(options).toMatchObject({ rpId: 'localhost', allowCredentials: [{ id: credential!.id }] });
    const assertion = json(
      authenticator.authenticate(options as unknown as PublicKeyCredentialRequestOptionsJSON, ORIGIN),
    );
    expect(ceremonies.credentialIdOf(assertion)).toBe(credential!.id);
    expect(await ceremonies.verifyAuthentication(assertion, challenge, credential!)).toEqual({
      counter: 1,
      userVerified: true,
    });
  });

  it('leaves the counter to the caller: an assertion whose counter went back still verifies and tells it', async () => {
    const authenticator = new SoftwareAuthenticator({ userVerified: false });
    const { credential } = await enrol(authenticator);
    const { options, challenge } = await ceremonies.authenticationOptions([]);
    const assertion = authenticator.authenticate(options as unknown as PublicKeyCredentialRequestOptionsJSON, ORIGIN, {
      counter: 3,
    });
    expect(await ceremonies.verifyAuthentication(json(assertion), challenge, { ...credential!, counter: 9 })).toEqual({
      counter: 3,
      userVerified: false,
    });
  });

  it('answers null, never throws, for another challenge, origin, key or a malformed answer', async () => {
    const authenticator = new SoftwareAuthenticator();
    const { credential, response } = await enrol(authenticator);
    expect(await ceremonies.verifyRegistration(json(response), 'another-challenge')).toBeNull();
    expect((await enrol(new SoftwareAuthenticator(), 'https://evil.example')).credential).toBeNull();
    expect(await ceremonies.verifyRegistration({ id: 'x' }, 'c')).toBeNull();
    const { options, challenge } = await ceremonies.authenticationOptions([]);
    const assertion = json(
      authenticator.authenticate(options as unknown as PublicKeyCredentialRequestOptionsJSON, ORIGIN),
    );
    expect(await ceremonies.verifyAuthentication(assertion, 'another-challenge', credential!)).toBeNull();
    const other = (await enrol(new SoftwareAuthenticator())).credential!;
    expect(
      await ceremonies.verifyAuthentication(assertion, challenge, { ...credential!, publicKey: other.publicKey }),
    ).toBeNull();
    expect(await ceremonies.verifyAuthentication({ response: 'nonsense' }, challenge, credential!)).toBeNull();
    expect(ceremonies.credentialIdOf({ id: 'a', rawId: 'b', type: 'public-key' })).toBeNull();
    expect(ceremonies.credentialIdOf({ nothing: true })).toBeNull();
  });

  it('marks a synced passkey as backed up', async () => {
    const { credential } = await enrol(new SoftwareAuthenticator({ backedUp: true }));
    expect(credential).toMatchObject({ backedUp: true, counter: 0, transports: ['internal'] });
  });
});
