import { describe, expect, it } from 'vitest';
import { describeDatabaseLocation, InvalidDatabaseUrlError, parseDatabaseUrl } from './database-url';

describe('parseDatabaseUrl()', () => {
  it.each([
    ['sqlite:./data/app.db', './data/app.db'],
    ['file:./data/app.db', './data/app.db'],
    ['sqlite:data.db', 'data.db'],
    ['sqlite:/var/lib/uas/app.db', '/var/lib/uas/app.db'],
    ['sqlite:///var/lib/uas/app.db', '/var/lib/uas/app.db'],
    ['file:///var/lib/uas/my%20app.db', '/var/lib/uas/my app.db'],
    ['SQLite:./app.db', './app.db'],
    ['sqlite::memory:', ':memory:'],
  ])('reads %s as the SQLite file %s', (url, path) => {
    expect(parseDatabaseUrl(url)).toEqual({ dialect: 'sqlite', url, path });
  });

  it.each([
    'postgres://uas:secret@db.example.com:5432/uas',
    'postgresql://localhost/uas',
    'postgres:///uas?host=/run/postgresql',
  ])('reads %s as PostgreSQL, keeping the URL whole', (url) => {
    expect(parseDatabaseUrl(url)).toEqual({ dialect: 'postgres', url });
  });

  it.each([
    ['', /no scheme/],
    ['./data/app.db', /no scheme/],
    ['mysql://root:hunter2@db/uas', /unsupported scheme "mysql:"/],
    ['http://admin:hunter2@example.com/', /unsupported scheme "http:"/],
    ['sqlite:', /names no file/],
    ['file:', /names no file/],
    ['sqlite://db-host/app.db', /names a host/],
    ['postgres://uas:hunter2@db:99999/uas', /not a well-formed postgres:\/\/ URL/],
    ['postgresql://uas:hun#ter2@db/uas', /not a well-formed postgresql:\/\/ URL/],
  ])('refuses %j, saying why', (url, why) => {
    expect(() => parseDatabaseUrl(url)).toThrow(InvalidDatabaseUrlError);
    expect(() => parseDatabaseUrl(url)).toThrow(why);
  });

  it('never repeats a password, or anything after the scheme, in its message', () => {
    for (const url of [
      'mysql://root:hunter2@db/uas',
      'postgres://uas:hunter2@db:99999/uas',
      'postgresql://uas:hun#ter2@db/uas',
    ]) {
      const message = (() => {
        try {
          parseDatabaseUrl(url);
          return '';
        } catch (error) {
          return (error as Error).message;
        }
      })();
      expect(message).not.toMatch(/hunter2|hun#ter2|root|uas:|@db/);
    }
  });
});

describe('describeDatabaseLocation()', () => {
  it.each([
    ['sqlite:./data/app.db', 'the SQLite file ./data/app.db'],
    ['postgres://uas:hunter2@db.example.com:6432/uas?password=hunter2', 'PostgreSQL at db.example.com:6432/uas'],
    ['postgresql://localhost/uas', 'PostgreSQL at localhost:5432/uas'],
    ['postgres:///uas?host=/run/postgresql', 'PostgreSQL at /run/postgresql:5432/uas'],
  ])('describes %s as %j, with no credentials', (url, description) => {
    expect(describeDatabaseLocation(parseDatabaseUrl(url))).toBe(description);
  });
});
