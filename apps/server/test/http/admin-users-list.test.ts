import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/test-application';
import { errorsLike } from '../support/error-expectations';
import { scenarioApplication } from '../support/scenario';
import type { UserListDocument, UserResource } from '@uas/client';

const USERS = '/v1/admin/users';

/** A link exactly as the contract writes it. */
const link = (page: number, size: number, search?: string) =>
  `${USERS}?page[number]=${page}&page[size]=${size}${search === undefined ? '' : `&search[email]=${encodeURIComponent(search)}`}`;

const searchFor = (term: string, query = '') => `${USERS}?search[email]=${encodeURIComponent(term)}${query}`;

const emailsOf = (document: UserListDocument) => document.data.map((user) => user.attributes.email);

describe.each(BACKENDS)('GET /v1/admin/users on %s', (backend) => {
  const s = scenarioApplication(backend, { fresh: 'each' });

  async function list(path: string): Promise<UserListDocument> {
    const response = await s.client.get(path, await s.client.adminToken());
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as UserListDocument;
  }

  /** Creates users one after another, a second apart, so `created` orders them. */
  async function createInOrder(emails: readonly string[]): Promise<UserResource[]> {
    const users: UserResource[] = [];
    for (const email of emails) {
      users.push(await s.client.createUser({ email }));
      s.t.clock.advance(1);
    }
    return users;
  }

  it('defaults to page 1 of size 20, with links, meta.total and full user resources', async () => {
    const users = await createInOrder(
      Array.from({ length: 21 }, (_, index) => `user${String(index).padStart(2, '0')}@example.com`),
    );
    const page = await list(USERS);
    expect(page.data).toEqual(users.slice(0, 20));
    expect(page.links).toEqual({ first: link(1, 20), last: link(2, 20), prev: null, next: link(2, 20) });
    expect(page.meta).toEqual({ total: 21 });
  });

  it('answers an empty listing with data [], total 0 and last = page 1', async () => {
    const page = await list(USERS);
    expect(page).toEqual({
      data: [],
      links: { first: link(1, 20), last: link(1, 20), prev: null, next: null },
      meta: { total: 0 },
    });
  });

  it('links every page: prev null on the first, next null on the last', async () => {
    await createInOrder(['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com', 'e@example.com']);
    expect((await list(`${USERS}?page[size]=2`)).links).toEqual({
      first: link(1, 2),
      last: link(3, 2),
      prev: null,
      next: link(2, 2),
    });
    expect((await list(link(2, 2))).links).toEqual({
      first: link(1, 2),
      last: link(3, 2),
      prev: link(1, 2),
      next: link(3, 2),
    });
    const last = await list(link(3, 2));
    expect(last.links).toEqual({ first: link(1, 2), last: link(3, 2), prev: link(2, 2), next: null });
    expect(emailsOf(last)).toEqual(['e@example.com']);
  });

  it('answers a page past the end with 200 and data [], still counting every user', async () => {
    await createInOrder(['a@example.com', 'b@example.com']);
    const page = await list(link(9, 2));
    expect(page.data).toEqual([]);
    expect(page.meta).toEqual({ total: 2 });
    expect(page.links).toMatchObject({ first: link(1, 2), last: link(1, 2), next: null });
  });

  it('orders by created, then by id, stably across pages', async () => {
    const early = await createInOrder(['late-alphabet-z@example.com', 'early-alphabet-a@example.com']);
    const sameInstant = await Promise.all(
      ['tie1@example.com', 'tie2@example.com', 'tie3@example.com', 'tie4@example.com'].map((email) =>
        s.client.createUser({ email }),
      ),
    );
    s.t.clock.advance(1);
    const late = await createInOrder(['m@example.com']);
    const expected = [...early, ...sameInstant.toSorted((a, b) => (a.id < b.id ? -1 : 1)), ...late].map(
      (user) => user.id,
    );

    const whole = await list(`${USERS}?page[size]=100`);
    expect(whole.data.map((user) => user.id)).toEqual(expected);
    const paged: string[] = [];
    for (let next: string | null = link(1, 2); next !== null; ) {
      const page = await list(next);
      paged.push(...page.data.map((user) => user.id));
      next = page.links.next;
    }
    expect(paged).toEqual(expected);
  });

  it.each([
    ['page[size]=0', 'page[size]'],
    ['page[size]=-1', 'page[size]'],
    ['page[size]=abc', 'page[size]'],
    ['page[size]=101', 'page[size]'],
    ['page[size]=1.5', 'page[size]'],
    ['page[size]=', 'page[size]'],
    ['page[number]=0', 'page[number]'],
    ['page[number]=-3', 'page[number]'],
    ['page[number]=two', 'page[number]'],
  ])('answers %s with 400 naming the parameter', async (query, parameter) => {
    const response = await s.client.get(`${USERS}?${query}`, await s.client.adminToken());
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(errorsLike([400, 'invalid_parameter', { parameter }]));
  });

  it('answers a search[email] holding a NUL character with 400 naming it', async () => {
    const response = await s.client.get(`${USERS}?search[email]=a%00b`, await s.client.adminToken());
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(errorsLike([400, 'invalid_parameter', { parameter: 'search[email]' }]));
  });

  it('answers two bad parameters with one 400 error each', async () => {
    const response = await s.client.get(`${USERS}?page[number]=0&page[size]=1000`, await s.client.adminToken());
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(
      errorsLike(
        [400, 'invalid_parameter', { parameter: 'page[number]' }],
        [400, 'invalid_parameter', { parameter: 'page[size]' }],
      ),
    );
  });

  it('accepts page[size]=100, the maximum', async () => {
    expect((await list(`${USERS}?page[size]=100`)).links.first).toBe(link(1, 100));
  });

  describe('search[email]', () => {
    it('matches a substring, whatever its case, and counts only the matches', async () => {
      await createInOrder([
        'Ann.Smith@Example.com',
        'bob.smith@example.com',
        'carol@example.org',
        'SMITHY@example.net',
      ]);
      const page = await list(searchFor('SMITH', '&page[size]=2'));
      expect(emailsOf(page)).toEqual(['ann.smith@example.com', 'bob.smith@example.com']);
      expect(page.meta).toEqual({ total: 3 });
      expect(page.links).toEqual({
        first: link(1, 2, 'SMITH'),
        last: link(2, 2, 'SMITH'),
        prev: null,
        next: link(2, 2, 'SMITH'),
      });
      expect(emailsOf(await list(page.links.next!))).toEqual(['smithy@example.net']);
      expect(emailsOf(await list(searchFor('n.sm')))).toEqual(['ann.smith@example.com']);
    });

    it('gives last = page 1 and total 0 when nothing matches', async () => {
      await createInOrder(['ann@example.com']);
      expect(await list(searchFor('nobody'))).toEqual({
        data: [],
        links: { first: link(1, 20, 'nobody'), last: link(1, 20, 'nobody'), prev: null, next: null },
        meta: { total: 0 },
      });
    });

    it.each([
      ['a%b', ['a%b@x.io']],
      ['%', ['a%b@x.io']],
      ['a_b', ['a_b@x.io']],
      ['_', ['a_b@x.io']],
      ['\\', []],
      ['a\\%b', []],
      ['a\\_b', []],
      ['+tag', ['x+tag@x.io']],
    ])('takes %j literally, never as a wildcard or an escape', async (term, expected) => {
      await createInOrder(['a%b@x.io', 'axb@x.io', 'a_b@x.io', 'acb@x.io', 'ab@x.io', 'x+tag@x.io']);
      const page = await list(searchFor(term));
      expect(emailsOf(page)).toEqual(expected);
      expect(page.meta.total).toBe(expected.length);
      expect(page.links.first).toBe(link(1, 20, term));
    });

    it('writes the term URL-encoded into the links, and following them keeps the search', async () => {
      await createInOrder(['a%b@x.io', 'a%bc@x.io', 'axb@x.io']);
      const first = await list(searchFor('a%b', '&page[size]=1'));
      expect(first.links).toEqual({
        first: `${USERS}?page[number]=1&page[size]=1&search[email]=a%25b`,
        last: `${USERS}?page[number]=2&page[size]=1&search[email]=a%25b`,
        prev: null,
        next: `${USERS}?page[number]=2&page[size]=1&search[email]=a%25b`,
      });
      const second = await list(first.links.next!);
      expect(emailsOf(first).concat(emailsOf(second))).toEqual(['a%b@x.io', 'a%bc@x.io']);
    });
  });
});
