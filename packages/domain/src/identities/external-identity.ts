/**
 * A user's account at an identity provider, stored under its unique (provider, subject): the
 * provider's stable id for the account, never its email, which can change hands.
 */
export interface ExternalIdentity {
  readonly id: string;
  readonly userId: string;
  readonly providerId: string;
  /** The provider's `sub` (for GitHub, the numeric user id). */
  readonly subject: string;
  /** The email the provider last gave, normalised, and whether it vouched for it; shown, never matched on again. */
  readonly email: string | null;
  readonly emailVerified: boolean;
  readonly created: Date;
  readonly lastSignIn: Date | null;
}
