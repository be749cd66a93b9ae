import { describe, expect, it } from '../testing/test-api.ts';
import { isPkceChallenge, pkceChallenge, pkceMatches } from './pkce.ts';

// The challenge as Node's crypto writes it: createHash('sha256').update(verifier).digest('base64url').
const VERIFIER = 'dBjftJeZ4CVP-mJ92ZUDWkBb8k9fXA9SCuCQ0TG3msk';
const CHALLENGE = 'AFEx8rCEHcVCNiJDrOqcOS8WytCdHjR5gWBi5p1w4wk';

describe('PKCE S256', () => {
  it('is the unpadded base64url of the verifier’s SHA-256, 43 characters', () => {
    expect(pkceChallenge(VERIFIER)).toBe(CHALLENGE);
    expect(isPkceChallenge(CHALLENGE)).toBe(true);
  });

  it('matches only the verifier behind the challenge, and only a verifier RFC 7636 allows', () => {
    expect(pkceMatches(VERIFIER, CHALLENGE)).toBe(true);
    expect(pkceMatches(`${VERIFIER}x`, CHALLENGE)).toBe(false);
    expect(pkceMatches('short', pkceChallenge('short'))).toBe(false);
    expect(isPkceChallenge(`${CHALLENGE}=`)).toBe(false);
  });
});
