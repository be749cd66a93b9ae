import { IdentityProviderError } from '../shared/errors.ts';
import { isStorableText } from '../shared/json.ts';
import { isValidEmail, NAME_MAX_LENGTH, normalizeEmail } from '../users/user.rules.ts';
import type { UpstreamAccount } from './oauth-attempt.ts';

/** OpenID Connect Core §2: `sub` is at most 255 characters. */
const SUBJECT_MAX_LENGTH = 255;

const UNSHOWABLE = /[\p{Cc}\p{Cs}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * A provider's display name as a user's name may be: control characters, lone surrogates and
 * bidirectional overrides removed, then cut to NAME_MAX_LENGTH without splitting a pair. Cleaned
 * rather than refused, so a sign-in never fails on what the account holder calls themselves.
 */
export function upstreamName(name: string | null): string {
  const cut = (name ?? '').replace(UNSHOWABLE, '').trim().slice(0, NAME_MAX_LENGTH);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * What a provider says of an account is untrusted input, checked here once whatever the preset:
 * a subject that is empty, longer than SUBJECT_MAX_LENGTH or unstorable is a misbehaving provider
 * (IdentityProviderError); an email that is not an address we accept is as good as none (and so
 * not vouched for); the name is cleaned by `upstreamName`.
 */
export function acceptedAccount(account: UpstreamAccount): UpstreamAccount {
  const { subject } = account;
  if (subject === '' || subject.length > SUBJECT_MAX_LENGTH || !isStorableText(subject)) {
    throw new IdentityProviderError(`the account's subject is empty, longer than ${SUBJECT_MAX_LENGTH} or unstorable`);
  }
  const normalized = account.email === null ? null : normalizeEmail(account.email);
  const email = normalized !== null && isValidEmail(normalized) ? normalized : null;
  return { subject, email, emailVerified: email !== null && account.emailVerified, name: upstreamName(account.name) };
}
