import { and, eq, type Column, type SQL } from 'drizzle-orm';

// The WHERE clauses on a user's external identities, written once for both dialects.

interface ExternalIdentityColumns {
  id: Column;
  userId: Column;
  emailVerified: Column;
}

/** The identity `id`, if it is the user's. */
export function identityOfUser(identities: ExternalIdentityColumns, id: string, userId: string): SQL | undefined {
  return and(eq(identities.id, id), eq(identities.userId, userId));
}

/** The identity `id`, if it is the user's and its provider did not vouch for its address. */
export function unvouchedIdentityOfUser(
  identities: ExternalIdentityColumns,
  id: string,
  userId: string,
): SQL | undefined {
  return and(identityOfUser(identities, id, userId), eq(identities.emailVerified, false));
}
