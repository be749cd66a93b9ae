import type { OpenIdScope } from '@uas/domain';

/**
 * What each scope lets an application do, as the consent page says it: in the user's words, not
 * the protocol's. The record is over every scope the service knows, so a new one does not compile
 * without its words.
 */
const SCOPE_WORDS: Record<OpenIdScope, string> = {
  openid: 'Know who you are',
  email: 'See your email address and whether it is verified',
  profile: 'See your name',
  metadata: 'See the details stored with your account',
  app: 'See the settings an administrator keeps for your account',
  offline_access: 'Stay signed in: use your account while you are away, until you remove its access here',
};

const isKnownScope = (scope: string): scope is OpenIdScope => Object.hasOwn(SCOPE_WORDS, scope);

/** The words of a scope; a scope the service does not know (none is granted unknown) is named as it is. */
export const scopeWords = (scope: string): string => (isKnownScope(scope) ? SCOPE_WORDS[scope] : scope);
