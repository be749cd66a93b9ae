import { token } from '../shared/token.ts';

/**
 * TOTP (RFC 6238, SHA-1, 6 digits, 30 s) and the random material of the second factor. The
 * server's adapter is otplib; the domain names only what it needs.
 */
export interface OneTimeCodes {
  /** A new random TOTP secret of 160 bits, base32 without padding. */
  newSecret(): string;
  /** The `otpauth://totp/...` URI an authenticator app scans. */
  uri(secret: string, accountName: string, issuer: string): string;
  /** The URI as a QR code, an SVG document. */
  qrSvg(uri: string): Promise<string>;
  /**
   * The time step `code` is valid for, within one step either side of `now`, or null. Telling
   * the step is what lets the store refuse a code whose step was used already.
   */
  stepOf(secret: string, code: string, now: Date): number | null;
  /** A new random recovery code (SECOND_FACTOR_RULES.recoveryCodes). */
  newRecoveryCode(): string;
}
export const OneTimeCodes = token<OneTimeCodes>('OneTimeCodes');
