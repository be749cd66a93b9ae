import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';

/** ES256: ECDSA over P-256 with SHA-256, COSE algorithm -7 (what every authenticator offers). */
const ES256 = -7;
/** Authenticator data flags (WebAuthn §6.1): user present, user verified, backup eligible and state, attested data. */
const FLAG = { up: 0x01, uv: 0x04, be: 0x08, bs: 0x10, at: 0x40 } as const;

/** One passkey the authenticator holds. */
export interface SoftwareCredential {
  readonly id: string;
  readonly rpId: string;
  /** The user handle, base64url, as the relying party gave it: a discoverable passkey gives it back. */
  readonly userHandle: string;
  readonly privateKey: KeyObject;
  counter: number;
}

export interface SoftwareAuthenticatorOptions {
  /** A synced passkey (backup eligible and backed up): its counter stays 0, so its sign-ins are `swk`. */
  backedUp?: boolean;
  /** Whether it verifies the user (PIN, biometrics); a plain security key does not. Default true. */
  userVerified?: boolean;
}

/**
 * A WebAuthn authenticator and the browser's part of the ceremony, in TypeScript for the tests:
 * real P-256 keys, `none` attestation, real ES256 signatures over the authenticator data and the
 * client data's hash, discoverable credentials with their user handle. No verifier is mocked: what
 * it answers goes through @simplewebauthn/server as a browser's answer would.
 */
export class SoftwareAuthenticator {
  readonly credentials: SoftwareCredential[] = [];
  private readonly backedUp: boolean;
  private readonly userVerified: boolean;

  constructor(options: SoftwareAuthenticatorOptions = {}) {
    this.backedUp = options.backedUp ?? false;
    this.userVerified = options.userVerified ?? true;
  }

  /** navigator.credentials.create(): a new key pair for the options' relying party and user. */
  register(options: PublicKeyCredentialCreationOptionsJSON, origin: string): RegistrationResponseJSON {
    const rpId = options.rp.id ?? new URL(origin).hostname;
    if (!options.pubKeyCredParams.some((parameter) => parameter.alg === ES256)) {
      throw new Error('NotSupportedError: the relying party does not accept ES256');
    }
    const excluded = new Set((options.excludeCredentials ?? []).map((descriptor) => descriptor.id));
    if (this.credentials.some((credential) => credential.rpId === rpId && excluded.has(credential.id))) {
      throw new Error('InvalidStateError: this authenticator holds an excluded credential');
    }
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const idBytes = randomBytes(16);
    const credential: SoftwareCredential = {
      id: idBytes.toString('base64url'),
      rpId,
      userHandle: options.user.id,
      privateKey,
      counter: 0,
    };
    this.credentials.push(credential);

    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = cbor(
      new Map<number, CborValue>([
        [1, 2], // kty: EC2
        [3, ES256],
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x ?? '', 'base64url')],
        [-3, Buffer.from(jwk.y ?? '', 'base64url')],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(idBytes.length);
    const authData = Buffer.concat([
      this.authenticatorData(rpId, FLAG.at, credential.counter),
      Buffer.alloc(16), // AAGUID: none, as `none` attestation reports
      idLength,
      idBytes,
      coseKey,
    ]);
    const clientDataJSON = clientData('webauthn.create', options.challenge, origin);
    const attestationObject = cbor(
      new Map<string, CborValue>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        attestationObject: attestationObject.toString('base64url'),
        authenticatorData: authData.toString('base64url'),
        transports: [this.backedUp ? 'internal' : 'usb'],
        publicKeyAlgorithm: ES256,
        publicKey: publicKey.export({ format: 'der', type: 'spki' }).toString('base64url'),
      },
      clientExtensionResults: {},
      authenticatorAttachment: this.backedUp ? 'platform' : 'cross-platform',
    };
  }

  /**
   * navigator.credentials.get(): signs the challenge with a credential the options allow, or, when
   * they allow none (a discoverable sign-in), with this authenticator's newest one for the RP.
   * `counter` sends that counter instead of the next one (a cloned authenticator's).
   */
  authenticate(
    options: PublicKeyCredentialRequestOptionsJSON,
    origin: string,
    { counter }: { counter?: number } = {},
  ): AuthenticationResponseJSON {
    const rpId = options.rpId ?? new URL(origin).hostname;
    const allowed = new Set((options.allowCredentials ?? []).map((descriptor) => descriptor.id));
    const credential = this.credentials
      .filter((candidate) => candidate.rpId === rpId && (allowed.size === 0 || allowed.has(candidate.id)))
      .at(-1);
    if (!credential) throw new Error('NotAllowedError: no credential of this authenticator is allowed');
    if (!this.backedUp) credential.counter += 1;
    const authData = this.authenticatorData(rpId, 0, counter ?? credential.counter);
    const clientDataJSON = clientData('webauthn.get', options.challenge, origin);
    const signature = sign(
      'sha256',
      Buffer.concat([authData, createHash('sha256').update(clientDataJSON).digest()]),
      credential.privateKey,
    );
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        authenticatorData: authData.toString('base64url'),
        signature: signature.toString('base64url'),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: this.backedUp ? 'platform' : 'cross-platform',
    };
  }

  private authenticatorData(rpId: string, extraFlags: number, counter: number): Buffer {
    const flags = FLAG.up | (this.userVerified ? FLAG.uv : 0) | (this.backedUp ? FLAG.be | FLAG.bs : 0) | extraFlags;
    const data = Buffer.alloc(37);
    createHash('sha256').update(rpId).digest().copy(data, 0);
    data.writeUInt8(flags, 32);
    data.writeUInt32BE(counter, 33);
    return data;
  }
}

const clientData = (type: string, challenge: string, origin: string) =>
  Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');

type CborValue = number | string | Buffer | Map<number | string, CborValue>;

/** The little CBOR (RFC 8949) a COSE key and an attestation object need: integers, strings, bytes, maps. */
function cbor(value: CborValue): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  return Buffer.concat([head(5, value.size), ...[...value].flatMap(([key, item]) => [cbor(key), cbor(item)])]);
}

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  const bytes = Buffer.alloc(3);
  bytes.writeUInt8((major << 5) | 25);
  bytes.writeUInt16BE(length, 1);
  return bytes;
}
