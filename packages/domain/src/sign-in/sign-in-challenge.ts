import { sha256Hex } from '../shared/sha256.ts';
import type { AuthMethod, SecondStepKind } from '../factors/factor.ts';
import type { SubjectKind } from '../shared/identity.ts';

/**
 * A sign-in half done: the first step (a password) passed, the second (a factor) is awaited.
 * Or, with no subject yet, a passwordless passkey sign-in's challenge. The client holds a random
 * handle; the store keeps only its digest (`id`). Single use, 5 minutes, 5 wrong answers.
 */
export interface SignInChallenge {
  /** SHA-256 digest of the handle the client was given. */
  readonly id: string;
  readonly owner: SubjectKind;
  /** Null for a passwordless passkey sign-in, whose assertion names the account. */
  readonly subjectId: string | null;
  readonly kinds: readonly SecondStepKind[];
  /** The WebAuthn challenge the assertion must sign, when a passkey may answer. */
  readonly webauthnChallenge: string | null;
  /** What the first step proved (`pwd`); empty for a passwordless challenge. */
  readonly methods: readonly AuthMethod[];
  readonly created: Date;
  readonly expires: Date;
  readonly failures: number;
  /** Set once, by the answer that completed it. */
  readonly completed: Date | null;
  readonly clientAddress: string | null;
  readonly userAgent: string | null;
}

/**
 * The id a challenge is stored and found under: the digest of what its client holds (a login
 * challenge's handle, or a passkey sign-in's WebAuthn challenge, which its assertion signs).
 */
export const challengeDigest = (handle: string): string => sha256Hex(handle);
