/**
 * The numbers of the second factor, in one place: what a TOTP code is (RFC 6238), how many
 * recovery codes a set has, how long a sign-in challenge lives and how many wrong answers end it
 * or lock the account's second step.
 */
export const SECOND_FACTOR_RULES = {
  totp: { digits: 6, periodSeconds: 30, algorithm: 'SHA1', secretBytes: 20, windowSteps: 1 },
  /** 10 codes of 12 base32 characters: 60 bits each, shown once, stored as HMACs under the factor-secret key. */
  recoveryCodes: { count: 10, length: 12 },
  challenge: { seconds: 300, maxFailures: 5 },
  /** 10 consecutive wrong second steps of one account lock its second step for 15 minutes. */
  lock: { failures: 10, seconds: 900 },
  /** Removing a factor or renewing the recovery codes needs a second-factor proof this recent. */
  stepUpSeconds: 300,
  /** Factors one account may hold (pending ones within their window included), and how long a pending one can be verified. */
  enrolment: { maxFactors: 10, pendingSeconds: 600 },
  /** Passkey options (each a stored challenge) one client address may ask for a minute, by default. */
  passkeyOptionsPerMinute: 30,
} as const;

/** ADMIN_MFA: whether an admin must enrol a second factor before doing anything else. */
export const ADMIN_MFA_MODES = ['optional', 'required'] as const;
export type AdminMfaMode = (typeof ADMIN_MFA_MODES)[number];
