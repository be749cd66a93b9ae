import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_MAIL_TEMPLATES } from '@uas/domain';
import { CONFIGURATION_PAGE, withConfigurationTable } from '../../../scripts/config-table';
import { loadConfig } from './config';

describe('loadConfig', () => {
  it('falls back to the documented defaults: port 3002, SQLite under ./data, ES256', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3002,
      database: { dialect: 'sqlite' },
      adminKeyPath: './data/admin.key',
      jwtAlgorithm: 'ES256',
      bcryptCost: 10,
      trustedProxies: [],
    });
  });

  it('sets the import ceilings of password hashes: bcrypt 14, 256 MiB, 10 argon2 passes, 1,000,000 PBKDF2 iterations', () => {
    expect(loadConfig({}).passwordHashCeilings).toEqual({
      bcryptCost: 14,
      memoryMiB: 256,
      argon2Passes: 10,
      pbkdf2Iterations: 1_000_000,
    });
    expect(loadConfig({ IMPORT_MAX_BCRYPT_COST: '12' }).passwordHashCeilings.bcryptCost).toBe(12);
    expect(() => loadConfig({ IMPORT_MAX_HASH_MEMORY_MIB: '0' })).toThrowError(/IMPORT_MAX_HASH_MEMORY_MIB/);
  });

  it('reads values from the environment', () => {
    const config = loadConfig({
      PORT: '4000',
      DATABASE_URL: 'postgres://u@db:5432/accounts',
      TRUSTED_PROXIES: '10.0.0.1, 10.0.0.2',
    });
    expect(config.port).toBe(4000);
    expect(config.database.dialect).toBe('postgres');
    expect(config.trustedProxies).toEqual(['10.0.0.1', '10.0.0.2']);
  });

  it('names every invalid variable in one error', () => {
    const attempt = () =>
      loadConfig({
        PORT: 'eighty',
        BCRYPT_COST: '99',
        JWT_ALGORITHM: 'HS256',
        DATABASE_URL: 'mysql://x',
        ADMIN_EMAIL: 'admin',
      });
    expect(attempt).toThrowError(/PORT/);
    for (const name of ['BCRYPT_COST', 'JWT_ALGORITHM', 'DATABASE_URL', 'ADMIN_EMAIL'])
      expect(attempt).toThrowError(new RegExp(name));
  });

  it('reads EMAIL_VERIFICATION: required by default, or optional, and nothing else', () => {
    expect(loadConfig({}).emailVerification).toBe('required');
    expect(loadConfig({ EMAIL_VERIFICATION: 'optional' }).emailVerification).toBe('optional');
    expect(() => loadConfig({ EMAIL_VERIFICATION: 'off' })).toThrowError(
      /EMAIL_VERIFICATION must be one of required, optional/,
    );
  });

  it('reads REFRESH_REUSE_GRACE_SECONDS: 10 by default, 0 for strict reuse detection, at most 300', () => {
    expect(loadConfig({}).refreshReuseGraceSeconds).toBe(10);
    expect(loadConfig({ REFRESH_REUSE_GRACE_SECONDS: '0' }).refreshReuseGraceSeconds).toBe(0);
    for (const bad of ['301', '-1', '2.5', 'ten']) {
      expect(() => loadConfig({ REFRESH_REUSE_GRACE_SECONDS: bad })).toThrowError(/REFRESH_REUSE_GRACE_SECONDS/);
    }
  });

  it('names TRUSTED_PROXIES when one of its entries is not an address or range', () => {
    expect(() => loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, 10.0.0.0/99' })).toThrowError(
      /TRUSTED_PROXIES.*10\.0\.0\.0\/99/,
    );
    expect(loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, fd00::/8' }).trustedProxies).toEqual(['10.0.0.0/8', 'fd00::/8']);
  });

  it('reads CORS_ORIGINS as exact origins (none by default) and names it for anything that is not one', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' }).corsOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
    ]);
    for (const bad of [
      '*',
      'app.example.com',
      'https://app.example.com/',
      'https://app.example.com/path',
      'https://App.example.com',
      'https://app.example.com:443',
      'ftp://files.example.com',
    ]) {
      expect(() => loadConfig({ CORS_ORIGINS: `https://ok.example.com,${bad}` })).toThrowError(/CORS_ORIGINS/);
    }
  });

  it('keeps a database password out of the error', () => {
    expect(() => loadConfig({ DATABASE_URL: 'redis://user:hunter2secret@host' })).toThrowError(
      /^(?![\s\S]*hunter2secret)/,
    );
  });

  it('names DATABASE_SCHEMA when it is not a lower-case SQL identifier; empty means none', () => {
    expect(() => loadConfig({ DATABASE_SCHEMA: 'Accounts-Prod' })).toThrowError(/DATABASE_SCHEMA/);
    expect(() => loadConfig({ DATABASE_SCHEMA: 'x'.repeat(64) })).toThrowError(/DATABASE_SCHEMA/);
    expect(loadConfig({ DATABASE_SCHEMA: 'accounts_prod' }).databaseSchema).toBe('accounts_prod');
    expect(loadConfig({ DATABASE_SCHEMA: '' }).databaseSchema).toBeUndefined();
  });

  it("refuses an audience reserved for the service's own tokens", () => {
    expect(() => loadConfig({ JWT_AUDIENCE: 'urn:user-account-service:admin' })).toThrowError(/JWT_AUDIENCE/);
  });

  it("sets the HTTP timeouts and the stop grace deliberately: keep-alive outlives a load balancer's 60 s idle timeout", () => {
    const config = loadConfig({});
    expect(config.http).toEqual({ headersMs: 10_000, requestMs: 30_000, keepAliveMs: 75_000 });
    expect(config.shutdownGraceMs).toBe(10_000);
    expect(loadConfig({ HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '620', SHUTDOWN_GRACE_SECONDS: '25' })).toMatchObject({
      http: { keepAliveMs: 620_000 },
      shutdownGraceMs: 25_000,
    });
  });

  it('refuses a request timeout shorter than the headers timeout, naming it', () => {
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_SECONDS: '20', HTTP_REQUEST_TIMEOUT_SECONDS: '10' })).toThrowError(
      /HTTP_REQUEST_TIMEOUT_SECONDS must not be less than HTTP_HEADERS_TIMEOUT_SECONDS/,
    );
  });

  it('serves no metrics unless a token of at least 32 characters is set', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrowError(/METRICS_TOKEN must be at least 32 characters/);
    expect(loadConfig({ METRICS_TOKEN: 'm'.repeat(32) }).metricsToken).toBe('m'.repeat(32));
  });
});

describe('loadConfig: second factor', () => {
  it('makes the passkeys work on http://localhost:3002 by default, and follows PUBLIC_URL', () => {
    expect(loadConfig({}).webauthn).toEqual({
      rpId: 'localhost',
      rpName: 'User-account service',
      origins: ['http://localhost:3002'],
    });
    expect(loadConfig({ PUBLIC_URL: 'https://id.example.com/auth/' }).webauthn).toMatchObject({
      rpId: 'id.example.com',
      origins: ['https://id.example.com'],
    });
    const set = loadConfig({
      WEBAUTHN_RP_ID: 'example.com',
      WEBAUTHN_RP_NAME: 'Example',
      WEBAUTHN_ORIGINS: 'https://app.example.com, https://id.example.com',
    });
    expect(set.webauthn).toEqual({
      rpId: 'example.com',
      rpName: 'Example',
      origins: ['https://app.example.com', 'https://id.example.com'],
    });
    expect(() => loadConfig({ WEBAUTHN_ORIGINS: 'https://app.example.com/path' })).toThrowError(/WEBAUTHN_ORIGINS/);
  });

  it('reads ADMIN_MFA and the MFA keys, the first of which seals', () => {
    expect(loadConfig({})).toMatchObject({ adminMfa: 'optional', mfaKeys: [] });
    const [first, second] = ['a'.repeat(43), 'b'.repeat(43)];
    expect(loadConfig({ ADMIN_MFA: 'required', MFA_ENCRYPTION_KEY: `${first}, ${second}` })).toMatchObject({
      adminMfa: 'required',
      mfaKeys: [first, second],
    });
    expect(() => loadConfig({ MFA_ENCRYPTION_KEY: 'short' })).toThrowError(/MFA_ENCRYPTION_KEY must be 32 bytes/);
    expect(() => loadConfig({ ADMIN_MFA: 'always' })).toThrowError(/ADMIN_MFA/);
  });
});

describe('loadConfig: mail', () => {
  it('sends no mail without SMTP_URL, and reads smtp:// and smtps:// URLs with MAIL_FROM', () => {
    expect(loadConfig({}).smtp).toBeNull();
    const config = loadConfig({
      SMTP_URL: 'smtps://mailer:s3cr%40t@mail.example.com',
      MAIL_FROM: 'Accounts <a@example.com>',
    });
    expect(config.smtp?.url.hostname).toBe('mail.example.com');
    expect(config.smtp?.from).toBe('Accounts <a@example.com>');
  });

  it('names SMTP_URL when it is not an smtp(s) URL, and keeps its password out of the error', () => {
    for (const url of ['http://u:hunter2pass@mail.example.com', 'mail.example.com:587', 'smtp://u:hunter2pass@']) {
      expect(() => loadConfig({ SMTP_URL: url, MAIL_FROM: 'a@example.com' })).toThrowError(
        /SMTP_URL must be smtp:\/\//,
      );
      expect(() => loadConfig({ SMTP_URL: url, MAIL_FROM: 'a@example.com' })).not.toThrowError(/hunter2pass/);
    }
  });

  it('needs MAIL_FROM, an address or Name <address>, with SMTP_URL', () => {
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example.com' })).toThrowError(
      /MAIL_FROM must be set when SMTP_URL is/,
    );
    expect(() => loadConfig({ MAIL_FROM: 'Accounts <nope>' })).toThrowError(
      /MAIL_FROM must be an address or Name <address>/,
    );
  });

  it('reads MAIL_TEMPLATES_DIR at start, naming a missing folder or a file with a placeholder its kind lacks', () => {
    const dir = mkdtempSync(join(tmpdir(), 'uas-templates-'));
    try {
      writeFileSync(join(dir, 'test.subject.txt'), 'Hello {{recipient}}');
      const templates = loadConfig({ MAIL_TEMPLATES_DIR: dir }).mailTemplates.of('test');
      expect(templates.subject).toBe('Hello {{recipient}}');
      expect(templates.text).toBe(DEFAULT_MAIL_TEMPLATES.test.text);
      writeFileSync(join(dir, 'test.html'), '<a href="{{link}}">go</a>');
      expect(() => loadConfig({ MAIL_TEMPLATES_DIR: dir })).toThrowError(
        /MAIL_TEMPLATES_DIR .*test\.html names \{\{link\}\}/,
      );
      expect(() => loadConfig({ MAIL_TEMPLATES_DIR: join(dir, 'none') })).toThrowError(
        /MAIL_TEMPLATES_DIR must be a directory/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the configuration variables', () => {
  it('are each listed in docs/configuration.md with their default and meaning (`pnpm config-table` rewrites the table)', () => {
    const page = readFileSync(CONFIGURATION_PAGE, 'utf8');
    expect(withConfigurationTable(page)).toBe(page);
  });
});
