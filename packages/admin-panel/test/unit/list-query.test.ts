import { describe, expect, it } from 'vitest';
import { apiPathOf, locationSearchOf, queryFromApiLink, queryFromLocation } from '../../src/state/list-query';

describe('list query', () => {
  it('reads search, page and size from the panel URL', () => {
    expect(queryFromLocation('?search=ann&page=3&size=50')).toEqual({ search: 'ann', page: 3, size: 50 });
  });

  it('falls back to page 1 of 20 for missing or bad values', () => {
    expect(queryFromLocation('')).toEqual({ search: '', page: 1, size: 20 });
    expect(queryFromLocation('?page=0&size=7')).toEqual({ search: '', page: 1, size: 20 });
    expect(queryFromLocation('?page=-2&size=abc')).toEqual({ search: '', page: 1, size: 20 });
    expect(queryFromLocation('?page=1.5')).toEqual({ search: '', page: 1, size: 20 });
  });

  it('writes only what differs from the defaults into the URL', () => {
    expect(locationSearchOf({ search: '', page: 1, size: 20 })).toBe('');
    expect(locationSearchOf({ search: 'a b&c', page: 2, size: 10 })).toBe('?search=a+b%26c&page=2&size=10');
  });

  it('round-trips through the URL', () => {
    const query = { search: '50%_off\\', page: 4, size: 100 } as const;
    expect(queryFromLocation(locationSearchOf(query))).toEqual(query);
  });

  it('builds API paths in the form of the API links, encoding the term', () => {
    expect(apiPathOf({ search: '', page: 2, size: 10 })).toBe('/v1/admin/users?page[number]=2&page[size]=10');
    expect(apiPathOf({ search: 'a&b=c', page: 1, size: 20 })).toBe(
      '/v1/admin/users?page[number]=1&page[size]=20&search[email]=a%26b%3Dc',
    );
  });

  it('reads the query an API link points at, with encoded or literal brackets', () => {
    expect(queryFromApiLink('/v1/admin/users?page[number]=3&page[size]=10&search[email]=x%40y')).toEqual({
      search: 'x@y',
      page: 3,
      size: 10,
    });
    expect(queryFromApiLink('/v1/admin/users?page%5Bnumber%5D=2&page%5Bsize%5D=50')).toEqual({
      search: '',
      page: 2,
      size: 50,
    });
  });

  it('never follows a link that is missing or leaves the users list', () => {
    expect(queryFromApiLink(null)).toBeNull();
    expect(queryFromApiLink('https://evil.example/v1/admin/users?page[number]=2')).toBeNull();
    expect(queryFromApiLink('//evil.example/v1/admin/users?page[number]=2')).toBeNull();
    expect(queryFromApiLink('/v1/admin/users/123')).toBeNull();
  });
});
