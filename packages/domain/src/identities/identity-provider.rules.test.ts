import { describe, expect, it } from '../testing/test-api.ts';
import type { ValidationIssue } from '../shared/errors.ts';
import {
  identityProviderCallbackUrl,
  identityProviderPatchIssues,
  issuerProblem,
  newIdentityProviderIssues,
  scopesProblem,
  slugProblem,
} from './identity-provider.rules.ts';

const HTTPS_ONLY = { allowHttp: false };
const DRAFT = { slug: 'github', kind: 'github', clientId: 'Iv1.abc', clientSecret: 's3cret' };
const pointers = (issues: readonly ValidationIssue[]) =>
  issues.map((issue) => ('pointer' in issue.source ? issue.source.pointer : null));

describe('identity provider rules', () => {
  it('takes slugs of lower-case letters, digits and inner dashes, 1 to 40 long', () => {
    for (const slug of ['a', 'github', 'acme-sso', 'x1', 'a'.repeat(40)])
      expect({ slug, problem: slugProblem(slug) }).toEqual({ slug, problem: null });
    for (const slug of ['', '-a', 'a-', 'GitHub', 'a_b', 'a.b', 'a b', 'a/b', 'a'.repeat(41), 'é']) {
      expect({ slug, refused: slugProblem(slug) !== null }).toEqual({ slug, refused: true });
    }
  });

  it('takes an https issuer kept exactly as written, http only where the operator allows it', () => {
    expect(issuerProblem('https://accounts.example.com', HTTPS_ONLY)).toBeNull();
    expect(issuerProblem('https://login.example.com/tenant/v2.0', HTTPS_ONLY)).toBeNull();
    expect(issuerProblem('http://127.0.0.1:8080', HTTPS_ONLY)).toMatch(/IDENTITY_PROVIDER_ALLOW_HTTP/);
    expect(issuerProblem('http://127.0.0.1:8080', { allowHttp: true })).toBeNull();
    for (const issuer of [
      'accounts.example.com',
      '/issuer',
      'ftp://example.com',
      'javascript:alert(1)',
      'https://user:pass@example.com',
      'https://example.com/?tenant=1',
      'https://example.com/#x',
      'https://example.com/?',
      `https://example.com/${'a'.repeat(2048)}`,
    ]) {
      expect({ issuer, refused: issuerProblem(issuer, HTTPS_ONLY) !== null }).toEqual({ issuer, refused: true });
    }
  });

  it('takes at most 20 scopes, each a token without spaces, quotes or backslashes', () => {
    expect(scopesProblem([])).toBeNull();
    expect(scopesProblem(['read:org', 'https://graph.microsoft.com/User.Read'])).toBeNull();
    for (const scopes of [
      ['a b'],
      [''],
      ['a"b'],
      ['a\\b'],
      ['é'],
      ['x'.repeat(101)],
      Array.from({ length: 21 }, (_, i) => `s${i}`),
    ]) {
      expect({ scopes, refused: scopesProblem(scopes) !== null }).toEqual({ scopes, refused: true });
    }
  });

  it('requires slug, kind and client_id of a new provider, the issuer of oidc and the secret of presets', () => {
    expect(newIdentityProviderIssues(DRAFT, HTTPS_ONLY)).toEqual([]);
    expect(pointers(newIdentityProviderIssues({}, HTTPS_ONLY))).toEqual([
      '/data/attributes/slug',
      '/data/attributes/kind',
      '/data/attributes/client_id',
    ]);
    for (const kind of ['github', 'google', 'microsoft', 'apple']) {
      expect(pointers(newIdentityProviderIssues({ ...DRAFT, kind, clientSecret: undefined }, HTTPS_ONLY))).toEqual([
        '/data/attributes/client_secret',
      ]);
    }
    const oidc = { slug: 'acme', kind: 'oidc', clientId: 'app' };
    expect(pointers(newIdentityProviderIssues(oidc, HTTPS_ONLY))).toEqual(['/data/attributes/issuer']);
    expect(newIdentityProviderIssues({ ...oidc, issuer: 'https://sso.acme.test' }, HTTPS_ONLY)).toEqual([]);
    expect(pointers(newIdentityProviderIssues({ ...DRAFT, kind: 'facebook' }, HTTPS_ONLY))).toEqual([
      '/data/attributes/kind',
    ]);
  });

  it('refuses empty, over-long or space-padded client ids and secrets, each by its pointer, never quoting it', () => {
    const SECRET = 'hunter2-secret-value';
    for (const [attribute, change] of [
      ['client_id', { clientId: '' }],
      ['client_id', { clientId: ' id' }],
      ['client_id', { clientId: 'x'.repeat(256) }],
      ['client_secret', { clientSecret: '' }],
      ['client_secret', { clientSecret: `${SECRET}\n` }],
      ['client_secret', { clientSecret: `${SECRET}\u0000` }],
      ['client_secret', { clientSecret: SECRET.repeat(300) }],
    ] as const) {
      const issues = newIdentityProviderIssues({ ...DRAFT, ...change }, HTTPS_ONLY);
      expect(pointers(issues)).toEqual([`/data/attributes/${attribute}`]);
      expect(issues[0]!.detail).not.toContain(SECRET);
    }
  });

  it('refuses a change that removes what the kind requires', () => {
    expect(pointers(identityProviderPatchIssues({ clientSecret: null }, 'google', HTTPS_ONLY))).toEqual([
      '/data/attributes/client_secret',
    ]);
    expect(identityProviderPatchIssues({ clientSecret: null }, 'oidc', HTTPS_ONLY)).toEqual([]);
    expect(pointers(identityProviderPatchIssues({ issuer: null }, 'oidc', HTTPS_ONLY))).toEqual([
      '/data/attributes/issuer',
    ]);
    expect(identityProviderPatchIssues({ issuer: null }, 'microsoft', HTTPS_ONLY)).toEqual([]);
  });

  it('builds the callback URL on PUBLIC_URL', () => {
    expect(identityProviderCallbackUrl('https://id.example.com/', 'github')).toBe(
      'https://id.example.com/v1/oauth/github/callback',
    );
  });
});
