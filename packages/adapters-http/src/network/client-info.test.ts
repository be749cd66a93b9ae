import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../app-env';
import { fromAddress } from '../testing';
import { NO_SOCKET_ADDRESS, clientInfo } from './client-info';
import { addressMatcher } from './ip-address';

function probe(trustedProxies: string[]) {
  return new Hono<AppEnv>().use(clientInfo(trustedProxies)).get('/', (c) => c.json(c.get('client')));
}

async function client(
  trusted: string[],
  socket: string | null,
  headers: Record<string, string> = {},
  url = 'http://api.test/',
) {
  const response = await probe(trusted).request(url, { headers }, socket === null ? undefined : fromAddress(socket));
  return response.json();
}

describe('the client address', () => {
  it('is a constant when there is no socket (app.request without bindings)', async () => {
    expect((await client([], null)).address).toBe(NO_SOCKET_ADDRESS);
  });

  it('is the socket address, and X-Forwarded-For is ignored when the socket is no trusted proxy', async () => {
    expect((await client([], '203.0.113.9', { 'X-Forwarded-For': '198.51.100.1' })).address).toBe('203.0.113.9');
    expect((await client(['10.0.0.1'], '203.0.113.9', { 'X-Forwarded-For': '198.51.100.1' })).address).toBe(
      '203.0.113.9',
    );
  });

  it.each([
    ['one proxy', ['10.0.0.1'], '198.51.100.7', '198.51.100.7'],
    ['a forged left-most entry', ['10.0.0.1'], '1.1.1.1, 198.51.100.7', '198.51.100.7'],
    ['a chain of trusted proxies', ['10.0.0.0/8'], '1.1.1.1, 198.51.100.7, 10.0.0.3, 10.0.0.2', '198.51.100.7'],
    ['only trusted hops', ['10.0.0.0/8'], '10.0.0.5, 10.0.0.3', '10.0.0.5'],
  ])('behind %s is the right-most untrusted X-Forwarded-For entry', async (_, trusted, header, expected) => {
    expect((await client(trusted, '10.0.0.1', { 'X-Forwarded-For': header })).address).toBe(expected);
  });

  it('is the trusted proxy itself when it sends no X-Forwarded-For', async () => {
    expect((await client(['10.0.0.1'], '10.0.0.1')).address).toBe('10.0.0.1');
  });

  it('folds IPv4-mapped IPv6 socket addresses into IPv4, for matching and for throttling keys', async () => {
    expect((await client([], '::ffff:203.0.113.9')).address).toBe('203.0.113.9');
    expect((await client(['127.0.0.1'], '::ffff:127.0.0.1', { 'X-Forwarded-For': '198.51.100.7' })).address).toBe(
      '198.51.100.7',
    );
  });
});

describe('https and the origin', () => {
  it('comes from the URL when there is no trusted proxy', async () => {
    expect(await client([], '203.0.113.9', { 'X-Forwarded-Proto': 'https' }, 'http://api.test:3002/')).toMatchObject({
      secure: false,
      origin: 'http://api.test:3002',
    });
    expect(await client([], '203.0.113.9', {}, 'https://api.test:443/')).toMatchObject({
      secure: true,
      origin: 'https://api.test',
    });
  });

  it('believes X-Forwarded-Proto and X-Forwarded-Host from a trusted proxy', async () => {
    const headers = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'accounts.example.com' };
    expect(await client(['10.0.0.1'], '10.0.0.1', headers, 'http://backend:3002/')).toMatchObject({
      secure: true,
      origin: 'https://accounts.example.com',
    });
  });
});

describe('trusted proxy entries', () => {
  it.each([
    ['10.1.2.3', '10.0.0.0/8', true],
    ['11.1.2.3', '10.0.0.0/8', false],
    ['::1', '::1', true],
    ['fd00::5', 'fd00::/8', true],
    ['10.1.2.3', '::ffff:10.0.0.0/104', true],
    ['not-an-ip', '10.0.0.0/8', false],
  ])('%s matches %s: %s', (address, rule, matches) => {
    expect(addressMatcher([rule])(address)).toBe(matches);
  });

  it.each(['localhost', '10.0.0.0/33', '10.0.0.0/8/1', '10.0.0.0/x'])('refuses %j at once', (rule) => {
    expect(() => addressMatcher([rule])).toThrow(TypeError);
  });
});
