import { describe, expect, it } from '../testing/test-api.ts';
import { REDIRECT_TARGET_MAX_LENGTH, redirectTargetProblem } from './redirect-target.ts';

const PUBLIC_ORIGIN = 'https://id.example.com';
const ALLOW_LIST = ['https://good.example', 'http://localhost:5173'];
const problem = (value: string) => redirectTargetProblem(value, PUBLIC_ORIGIN, ALLOW_LIST);

describe('redirectTargetProblem: where a sign-in with an identity provider may end', () => {
  it.each([
    '/',
    '/app/done',
    '/app/done?tab=2#top',
    '/a%20b',
    'https://good.example',
    'https://good.example/',
    'https://good.example/callback?x=1',
    'https://GOOD.example/callback',
    'HTTPS://good.example/callback',
    'https://good.example:443/callback',
    'http://localhost:5173/done',
    'https://id.example.com/app/done',
  ])('allows %j', (value) => {
    expect(problem(value)).toBeNull();
  });

  it.each([
    ['', 'must not be empty'],
    ['javascript:alert(1)', 'must be an http or https URL'],
    ['JavaScript:alert(1)', 'must be an http or https URL'],
    ['java\tscript:alert(1)', 'must not contain control characters'],
    ['data:text/html,<script>alert(1)</script>', 'must be an http or https URL'],
    ['//evil.example', 'must be a path with a single leading slash (not //host)'],
    ['//evil.example/path', 'must be a path with a single leading slash (not //host)'],
    ['/\\evil.example', 'must not contain a backslash'],
    ['\\\\evil.example', 'must not contain a backslash'],
    ['/%5Cevil.example', 'must not contain a backslash'],
    ['https://good.example\\@evil.example', 'must not contain a backslash'],
    ['https://good.example@evil.example', 'must not carry a user name or password'],
    ['https://user:pass@good.example/', 'must not carry a user name or password'],
    [
      'https://good.example.evil.example',
      'must be a path on this service or a URL of an origin in REDIRECT_ALLOW_LIST',
    ],
    [
      'https://evil.example/?https://good.example',
      'must be a path on this service or a URL of an origin in REDIRECT_ALLOW_LIST',
    ],
    ['https://good.example:444/', 'must be a path on this service or a URL of an origin in REDIRECT_ALLOW_LIST'],
    ['http://good.example/', 'must be a path on this service or a URL of an origin in REDIRECT_ALLOW_LIST'],
    ['https://localhost:5173/', 'must be a path on this service or a URL of an origin in REDIRECT_ALLOW_LIST'],
    ['https://evil.example', 'must be a path on this service or a URL of an origin in REDIRECT_ALLOW_LIST'],
    ['%2F%2Fevil.example', 'must be a path starting with / or an absolute URL'],
    ['/%2F%2Fevil.example', 'must be a path with a single leading slash (not //host)'],
    ['/%252F%252Fevil.example', 'must be a path with a single leading slash (not //host)'],
    ['/%2f/evil.example', 'must be a path with a single leading slash (not //host)'],
    ['/.//evil.example', 'must be a path with a single leading slash (not //host)'],
    ['/a/..//evil.example', 'must be a path with a single leading slash (not //host)'],
    ['/%2e//evil.example', 'must be a path with a single leading slash (not //host)'],
    ['/%E0%A4%A', 'must be correctly percent-encoded'],
    ['evil.example', 'must be a path starting with / or an absolute URL'],
    ['app/done', 'must be a path starting with / or an absolute URL'],
    ['/app\ndone', 'must not contain control characters'],
    ['/app%0d%0aSet-Cookie:x=1', 'must not contain control characters'],
    ['https://good.example/\r\n', 'must not contain control characters'],
    ['/app%00', 'must not contain control characters'],
    [' https://good.example/', 'must not start or end with spaces'],
    ['/done ', 'must not start or end with spaces'],
    ['ftp://good.example/', 'must be an http or https URL'],
    [`/${'a'.repeat(REDIRECT_TARGET_MAX_LENGTH)}`, `must be at most ${REDIRECT_TARGET_MAX_LENGTH} characters`],
  ])('refuses %j: %s', (value, expected) => {
    expect(problem(value)).toBe(expected);
  });

  it('allows no origin but this service with an empty allow list', () => {
    expect(redirectTargetProblem('https://good.example/', PUBLIC_ORIGIN, [])).not.toBeNull();
    expect(redirectTargetProblem('/done', PUBLIC_ORIGIN, [])).toBeNull();
  });
});
