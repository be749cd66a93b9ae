import { describe, expect, it } from 'vitest';
import { userPageLinks as pageLinks } from './user-list.presenter';

const link = (page: number, size: number, search = '') =>
  `/v1/admin/users?page[number]=${page}&page[size]=${size}${search}`;

describe('pageLinks', () => {
  it.each([
    [
      'no results: last is page 1',
      { page: 1, size: 20 },
      0,
      { first: link(1, 20), last: link(1, 20), prev: null, next: null },
    ],
    [
      'the first of three pages',
      { page: 1, size: 10 },
      25,
      { first: link(1, 10), last: link(3, 10), prev: null, next: link(2, 10) },
    ],
    [
      'a middle page',
      { page: 2, size: 10 },
      25,
      { first: link(1, 10), last: link(3, 10), prev: link(1, 10), next: link(3, 10) },
    ],
    [
      'the last page, exactly full',
      { page: 3, size: 10 },
      30,
      { first: link(1, 10), last: link(3, 10), prev: link(2, 10), next: null },
    ],
    [
      'past the end: prev leads back to the last page',
      { page: 9, size: 10 },
      25,
      { first: link(1, 10), last: link(3, 10), prev: link(3, 10), next: null },
    ],
  ])('%s', (_, query, total, expected) => {
    expect(pageLinks(query, total)).toEqual(expected);
  });

  it('carries the search term URL-encoded, wildcard characters included', () => {
    const links = pageLinks({ page: 1, size: 5, search: 'a&b=c %_\\' }, 3);
    expect(links.first).toBe(link(1, 5, '&search[email]=a%26b%3Dc%20%25_%5C'));
    expect(new URL(links.first, 'http://x').searchParams.get('search[email]')).toBe('a&b=c %_\\');
  });
});
