import { describe, expect, it } from '../testing/test-api.ts';
import { accountLink } from './account-link.ts';

describe('accountLink', () => {
  it('puts the page of the purpose under /account/ of the public address, the token as `token`', () => {
    expect(accountLink('https://id.example.com', 'recovery', 'abc_DEF-123')).toBe(
      'https://id.example.com/account/reset-password?token=abc_DEF-123',
    );
  });

  it('keeps a path the service is published under, with or without its trailing slash', () => {
    expect(accountLink('https://example.com/auth', 'verification', 't')).toBe(
      'https://example.com/auth/account/verify?token=t',
    );
    expect(accountLink('https://example.com/auth/', 'invitation', 't')).toBe(
      'https://example.com/auth/account/accept-invitation?token=t',
    );
  });
});
