/**
 * Limits on the cost a stored hash may demand at login. A hash over them is refused at import,
 * so an import cannot turn every login into a denial of service.
 */
export interface HashCeilings {
  bcryptCost: number;
  /** argon2 `m`, and scrypt's 128·N·r·p bytes. */
  memoryMiB: number;
  /** argon2 `t`. */
  argon2Passes: number;
  pbkdf2Iterations: number;
}

/** One password-hash format this service can verify. */
export interface HashFormat {
  readonly name: string;
  /** Whether the string claims to be of this format (by its prefix). */
  claims(hash: string): boolean;
  /** Why a hash claiming this format is malformed or too costly, or null. */
  problem(hash: string, ceilings: HashCeilings): string | null;
  /** Only called on a hash without a problem. */
  verify(password: string, hash: string): Promise<boolean>;
}

export const MIB = 1024 * 1024;

/** No limit: for verifying what is already stored, whose cost was checked when it came in. */
export const NO_CEILINGS: HashCeilings = {
  bcryptCost: 31,
  memoryMiB: Infinity,
  argon2Passes: Infinity,
  pbkdf2Iterations: Infinity,
};
