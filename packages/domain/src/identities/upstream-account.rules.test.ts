import { describe, expect, it } from '../testing/test-api.ts';
import { IdentityProviderError } from '../shared/errors.ts';
import { acceptedAccount, upstreamName } from './upstream-account.rules.ts';

const account = { subject: 'sub-1', email: ' Ann@Example.COM ', emailVerified: true, name: 'Ann' };

describe('acceptedAccount', () => {
  it('keeps a good account, its email normalised', () => {
    expect(acceptedAccount(account)).toEqual({ ...account, email: 'ann@example.com' });
  });

  it('refuses an empty, too long or unstorable subject as the provider misbehaving', () => {
    for (const subject of ['', 'x'.repeat(256), 'a\u0000b', '\ud800']) {
      const refusal = (() => {
        try {
          return acceptedAccount({ ...account, subject });
        } catch (error) {
          return error;
        }
      })();
      expect(refusal).toBeInstanceOf(IdentityProviderError);
    }
    expect(acceptedAccount({ ...account, subject: 'x'.repeat(255) }).subject).toHaveLength(255);
  });

  it('takes an email that is no address as none, and so not vouched for', () => {
    for (const email of ['a\u0000b@example.com', 'not-an-address', `${'a'.repeat(250)}@example.com`]) {
      expect(acceptedAccount({ ...account, email })).toMatchObject({ email: null, emailVerified: false });
    }
  });
});

describe('upstreamName', () => {
  it('removes control characters and bidirectional overrides, and cuts to 200 without splitting a pair', () => {
    expect(upstreamName('a\u0000b\u202ec\u2066')).toBe('abc');
    expect(upstreamName(null)).toBe('');
    expect(upstreamName('N'.repeat(3000))).toBe('N'.repeat(200));
    expect(upstreamName(`${'N'.repeat(199)}😀`)).toBe('N'.repeat(199));
    expect(upstreamName('Zoë 😀')).toBe('Zoë 😀');
  });
});
