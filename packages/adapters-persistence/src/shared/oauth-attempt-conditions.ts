import { and, eq, gt, isNull, lt, or, type Column, type SQL } from 'drizzle-orm';

// The WHERE clauses of the OAuth attempt steps, written once for both dialects: each step that
// spends a value matches only while the value is unused and unexpired.

interface OAuthAttemptColumns {
  id: Column;
  providerId: Column;
  handoffDigest: Column;
  browserDigest: Column;
  stateDigest: Column;
  stateUsed: Column;
  expires: Column;
  codeDigest: Column;
  codeUsed: Column;
  codeExpires: Column;
}

/** The attempt the hand-off value names, if no browser took it yet and its state is unused and unexpired. */
export function awaitingHandOff(attempts: OAuthAttemptColumns, handoffDigest: string, now: Date): SQL | undefined {
  return and(
    eq(attempts.handoffDigest, handoffDigest),
    isNull(attempts.browserDigest),
    isNull(attempts.stateUsed),
    gt(attempts.expires, now),
  );
}

/** The attempt the state names, if this browser holds it for this provider and it is unused and unexpired. */
export function usableState(
  attempts: OAuthAttemptColumns,
  state: { digest: string; providerId: string; browserDigest: string },
  now: Date,
): SQL | undefined {
  return and(
    eq(attempts.stateDigest, state.digest),
    eq(attempts.providerId, state.providerId),
    eq(attempts.browserDigest, state.browserDigest),
    isNull(attempts.stateUsed),
    gt(attempts.expires, now),
  );
}

/** The attempt `id`, if no code was issued for it yet: a code is issued once. */
export function withoutCode(attempts: OAuthAttemptColumns, id: string): SQL | undefined {
  return and(eq(attempts.id, id), isNull(attempts.codeDigest));
}

/** The attempt the code names, if the code is unused and unexpired. */
export function redeemableCode(attempts: OAuthAttemptColumns, codeDigest: string, now: Date): SQL | undefined {
  return and(eq(attempts.codeDigest, codeDigest), isNull(attempts.codeUsed), gt(attempts.codeExpires, now));
}

/** The attempts whose state and code (if any) both expired before `before`. */
export function expiredAttempts(attempts: OAuthAttemptColumns, before: Date): SQL | undefined {
  return and(lt(attempts.expires, before), or(isNull(attempts.codeExpires), lt(attempts.codeExpires, before)));
}
