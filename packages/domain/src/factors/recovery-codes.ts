import type { SecretBox } from '../secrets/secret-box.ts';

/**
 * A recovery code as typed: case, spaces and dashes do not count, so `ABCD-efgh ijkl` is the code
 * `abcdefghijkl`. Codes are shown grouped for reading aloud; only this form is digested.
 */
export const normalizeRecoveryCode = (code: string): string => code.replace(/[\s-]/g, '').toLowerCase();

/**
 * What the store keeps of a recovery code: the HMAC-SHA256 of its normal form under the key ring's
 * `factor-secret` key, which is kept wrapped under the MFA key outside the database. An unkeyed
 * digest of 60 random bits could be swept once for every account of a database copy; this one
 * cannot be checked without the key.
 */
export const recoveryCodeDigest = (box: SecretBox, code: string): Promise<string> =>
  box.mac('factor-secret', normalizeRecoveryCode(code));

/** The digests a typed code may be stored under: one per `factor-secret` key still held, current first. */
export const recoveryCodeLookups = (box: SecretBox, code: string): Promise<string[]> =>
  box.macs('factor-secret', normalizeRecoveryCode(code));
