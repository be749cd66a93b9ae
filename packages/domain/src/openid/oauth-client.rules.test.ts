import { describe, expect, it } from '../testing/test-api.ts';
import type { ValidationIssue } from '../shared/errors.ts';
import type { OAuthApplicationType } from './oauth-client.ts';
import {
  clientNameProblem,
  clientScopesProblem,
  newOAuthClientIssues,
  normalizeClientScopes,
  oauthClientPatchIssues,
  redirectUriProblem,
} from './oauth-client.rules.ts';

const DRAFT = { name: 'Acme CRM', type: 'confidential', redirectUris: ['https://crm.acme.test/callback'] };
const pointers = (issues: readonly ValidationIssue[]) =>
  issues.map((issue) => ('pointer' in issue.source ? issue.source.pointer : null));
const accepted = (uri: string, type: OAuthApplicationType) => ({ uri, type, problem: redirectUriProblem(uri, type) });
const refused = (uri: string, type: OAuthApplicationType) => ({
  uri,
  type,
  refused: redirectUriProblem(uri, type) !== null,
});

/** URIs no client may register, whatever its type. */
const NEVER = [
  'https://*.acme.test/callback',
  'https://crm.acme.test/*',
  'https://crm.acme.test/cb*',
  'https://crm.acme.test/callback#',
  'https://crm.acme.test/callback#frag',
  'javascript:alert(1)',
  'JavaScript:alert(1)',
  'JAVASCRIPT://crm.acme.test/%0aalert(1)',
  ' javascript:alert(1)',
  'javascript:alert(1) ',
  'java\tscript:alert(1)',
  '\njavascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'DATA:text/html;base64,PHNjcmlwdD4=',
  'vbscript:msgbox(1)',
  'VbScript:msgbox(1)',
  'file:///etc/passwd',
  'FILE://host/share',
  'https://user:pass@crm.acme.test/callback',
  'https://user@crm.acme.test/callback',
  'https://crm.acme.test\\@evil.test/callback',
  'https://crm.acme.test/ callback',
  'https://crm.acme.test/callback\u0000',
  'https://crmé.acme.test/callback',
  '/callback',
  'crm.acme.test/callback',
  '',
  `https://crm.acme.test/${'a'.repeat(2000)}`,
];

describe('OAuth client rules', () => {
  it('takes a web client’s https redirect URIs on a host of its own, with a query, as written', () => {
    for (const uri of [
      'https://crm.acme.test/callback',
      'https://crm.acme.test/cb?tenant=1',
      'HTTPS://CRM.acme.test/cb',
    ])
      expect(accepted(uri, 'web')).toEqual({ uri, type: 'web', problem: null });
  });

  it('refuses wildcards, fragments, credentials, relative URIs and scripting schemes in any case or spacing', () => {
    for (const type of ['web', 'native'] as const) {
      for (const uri of NEVER) expect(refused(uri, type)).toEqual({ uri, type, refused: true });
    }
  });

  it('refuses http and loopback addresses for web clients', () => {
    for (const uri of [
      'http://crm.acme.test/callback',
      'http://localhost:3000/callback',
      'http://127.0.0.1/callback',
      'https://localhost/callback',
      'https://127.0.0.1:8443/callback',
      'https://[::1]/callback',
      'com.acme.crm:/callback',
      'ftp://crm.acme.test/callback',
      // Every other way of writing a loopback address.
      'https://[::ffff:127.0.0.1]/callback',
      'https://[::ffff:7f00:1]/callback',
      'https://[::ffff:127.1.2.3]/callback',
      'https://[0:0:0:0:0:ffff:7f00:1]/callback',
      'https://[::127.0.0.1]/callback',
      'https://[::ffff:0:127.0.0.1]/callback',
      'https://[0:0:0:0:0:0:0:1]/callback',
      'https://127.1/callback',
      'https://0x7f.1/callback',
      'https://2130706433/callback',
      'https://127.255.255.254/callback',
      'https://LOCALHOST/callback',
      'https://localhost./callback',
      'https://app.localhost/callback',
      'https://a.b.localhost/callback',
    ]) {
      expect(refused(uri, 'web')).toEqual({ uri, type: 'web', refused: true });
    }
  });

  it('takes web addresses that only look like loopback', () => {
    for (const uri of [
      'https://localhost.acme.test/callback',
      'https://mylocalhost/callback',
      'https://128.0.0.1/callback',
      'https://[::ffff:8.8.8.8]/callback',
      'https://[2001:db8::127:0:0:1]/callback',
      'https://[::2]/callback',
    ]) {
      expect(accepted(uri, 'web')).toEqual({ uri, type: 'web', problem: null });
    }
  });

  it('takes a native client’s loopback http, claimed https and reverse-domain private-use schemes (RFC 8252)', () => {
    for (const uri of [
      'http://127.0.0.1/callback',
      'http://127.0.0.1:51004/callback',
      'http://localhost/callback',
      'http://[::1]:8080/callback',
      'https://app.acme.test/callback',
      'com.acme.crm:/callback',
      'com.acme.crm://oauth/callback',
    ]) {
      expect(accepted(uri, 'native')).toEqual({ uri, type: 'native', problem: null });
    }
    for (const uri of [
      'http://crm.acme.test/callback',
      'http://127.0.0.2/callback',
      'http://localhost.acme.test/callback',
      'https://localhost/callback',
      'https://127.0.0.1/callback',
      'myapp:/callback',
      'ws://127.0.0.1/callback',
    ]) {
      expect(refused(uri, 'native')).toEqual({ uri, type: 'native', refused: true });
    }
  });

  it('names a refused URI by its position, never quoting it', () => {
    const [issue] = newOAuthClientIssues({
      ...DRAFT,
      redirectUris: ['https://crm.acme.test/callback', 'javascript:alert("<x>")'],
    });
    expect(issue).toEqual({
      source: { pointer: '/data/attributes/redirect_uris' },
      detail: 'redirect_uris entry 1 must not use the javascript: scheme',
    });
  });

  it('takes at most 20 redirect URIs, at least one, and post-logout URIs by the same rules (none is fine)', () => {
    const many = (count: number) => Array.from({ length: count }, (_, i) => `https://crm.acme.test/cb${i}`);
    expect(newOAuthClientIssues({ ...DRAFT, redirectUris: many(20), postLogoutRedirectUris: many(20) })).toEqual([]);
    expect(newOAuthClientIssues({ ...DRAFT, postLogoutRedirectUris: [] })).toEqual([]);
    expect(
      pointers(newOAuthClientIssues({ ...DRAFT, redirectUris: many(21), postLogoutRedirectUris: many(21) })),
    ).toEqual(['/data/attributes/redirect_uris', '/data/attributes/post_logout_redirect_uris']);
    expect(pointers(newOAuthClientIssues({ ...DRAFT, redirectUris: [] }))).toEqual(['/data/attributes/redirect_uris']);
    expect(
      pointers(newOAuthClientIssues({ ...DRAFT, postLogoutRedirectUris: ['https://crm.acme.test/bye#x'] })),
    ).toEqual(['/data/attributes/post_logout_redirect_uris']);
    expect(pointers(newOAuthClientIssues({ ...DRAFT, postLogoutRedirectUris: ['http://localhost:3000/bye'] }))).toEqual(
      ['/data/attributes/post_logout_redirect_uris'],
    );
  });

  it('judges URIs by the application type: loopback for a native client only', () => {
    const loopback = { ...DRAFT, type: 'public', redirectUris: ['http://127.0.0.1:7777/cb'] };
    expect(newOAuthClientIssues({ ...loopback, applicationType: 'native' })).toEqual([]);
    expect(pointers(newOAuthClientIssues(loopback))).toEqual(['/data/attributes/redirect_uris']);
    expect(oauthClientPatchIssues({ redirectUris: ['http://127.0.0.1:7777/cb'] }, 'native')).toEqual([]);
    expect(pointers(oauthClientPatchIssues({ redirectUris: ['http://127.0.0.1:7777/cb'] }, 'web'))).toEqual([
      '/data/attributes/redirect_uris',
    ]);
  });

  it('takes only the scopes of the catalogue, and always adds openid', () => {
    expect(clientScopesProblem(['openid', 'email', 'profile', 'metadata', 'app', 'offline_access'])).toBeNull();
    for (const scopes of [['admin'], ['openid', 'Email'], ['openid email'], ['']]) {
      expect({ scopes, refused: clientScopesProblem(scopes) !== null }).toEqual({ scopes, refused: true });
    }
    expect(normalizeClientScopes([])).toEqual(['openid']);
    expect(normalizeClientScopes(['offline_access', 'email', 'email'])).toEqual(['openid', 'email', 'offline_access']);
  });

  it('takes a name of 1 to 100 characters without control characters or surrounding spaces', () => {
    expect(clientNameProblem('Acme <CRM> & "Co"')).toBeNull();
    expect(clientNameProblem('a'.repeat(100))).toBeNull();
    for (const name of ['', ' Acme', 'Acme ', 'Ac\nme', 'a'.repeat(101), 'bad\uD800']) {
      expect({ name, refused: clientNameProblem(name) !== null }).toEqual({ name, refused: true });
    }
  });

  it('refuses bidi overrides and other invisible formatting characters in a name', () => {
    const hidden = [
      '\u202E', // right-to-left override
      '\u202D', // left-to-right override
      '\u202A', // left-to-right embedding
      '\u202B', // right-to-left embedding
      '\u202C', // pop directional formatting
      '\u2066', // left-to-right isolate
      '\u2067', // right-to-left isolate
      '\u2068', // first strong isolate
      '\u2069', // pop directional isolate
      '\u200E', // left-to-right mark
      '\u200F', // right-to-left mark
      '\u061C', // Arabic letter mark
      '\u200B', // zero-width space
      '\u200D', // zero-width joiner
      '\u2060', // word joiner
      '\uFEFF', // zero-width no-break space
      '\u00AD', // soft hyphen
      '\u2028', // line separator
      '\u2029', // paragraph separator
      '\u0085', // next line
      '\u{E0041}', // tag character
    ];
    for (const character of hidden) {
      const name = `Acme${character}CRM`;
      expect({ name, refused: clientNameProblem(name) !== null }).toEqual({ name, refused: true });
    }
    for (const name of ['Acme CRM', 'Café Żółw', 'شركة أكمي', 'アクメ', 'Acme 🐢']) {
      expect({ name, problem: clientNameProblem(name) }).toEqual({ name, problem: null });
    }
  });

  it('requires name, type and redirect URIs of a new client, and knows the types', () => {
    expect(newOAuthClientIssues(DRAFT)).toEqual([]);
    expect(pointers(newOAuthClientIssues({}))).toEqual([
      '/data/attributes/name',
      '/data/attributes/type',
      '/data/attributes/redirect_uris',
    ]);
    expect(pointers(newOAuthClientIssues({ ...DRAFT, type: 'trusted', applicationType: 'desktop' }))).toEqual([
      '/data/attributes/type',
      '/data/attributes/application_type',
    ]);
  });

  it('takes an ID token signing algorithm among ES256, EdDSA and RS256, or null', () => {
    for (const algorithm of ['ES256', 'EdDSA', 'RS256', null]) {
      expect(newOAuthClientIssues({ ...DRAFT, idTokenSigningAlgorithm: algorithm })).toEqual([]);
      expect(oauthClientPatchIssues({ idTokenSigningAlgorithm: algorithm }, 'web')).toEqual([]);
    }
    for (const algorithm of ['none', 'HS256', 'rs256', 'PS256', '']) {
      expect(pointers(newOAuthClientIssues({ ...DRAFT, idTokenSigningAlgorithm: algorithm }))).toEqual([
        '/data/attributes/id_token_signed_response_alg',
      ]);
    }
  });

  it('refuses an ID token algorithm the service holds no key for, on creation and on a change', () => {
    const held = ['ES256', 'RS256'] as const;
    expect(newOAuthClientIssues({ ...DRAFT, idTokenSigningAlgorithm: 'RS256' }, held)).toEqual([]);
    expect(oauthClientPatchIssues({ idTokenSigningAlgorithm: null }, 'web', held)).toEqual([]);
    expect(pointers(newOAuthClientIssues({ ...DRAFT, idTokenSigningAlgorithm: 'EdDSA' }, held))).toEqual([
      '/data/attributes/id_token_signed_response_alg',
    ]);
    expect(oauthClientPatchIssues({ idTokenSigningAlgorithm: 'EdDSA' }, 'web', held)[0]?.detail).toMatch(
      /ES256, RS256: JWT_ALGORITHM and RS256/,
    );
  });

  it('judges only what a patch names', () => {
    expect(oauthClientPatchIssues({}, 'web')).toEqual([]);
    expect(pointers(oauthClientPatchIssues({ name: '', scopes: ['root'] }, 'web'))).toEqual([
      '/data/attributes/name',
      '/data/attributes/scopes',
    ]);
  });
});
