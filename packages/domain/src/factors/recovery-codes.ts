import { sha256Hex } from '../shared/sha256.ts';

/**
 * A recovery code as typed: case, spaces and dashes do not count, so `ABCD-efgh ijkl` is the code
 * `abcdefghijkl`. Codes are shown grouped for reading aloud; only this form is digested.
 */
export const normalizeRecoveryCode = (code: string): string => code.replace(/[\s-]/g, '').toLowerCase();

/**
 * What the store keeps of a recovery code: the SHA-256 digest of its normal form. 60 random bits
 * need no slow hash or salt; nothing short of 2^60 guesses per code finds one from its digest.
 */
export const recoveryCodeDigest = (code: string): string => sha256Hex(normalizeRecoveryCode(code));
