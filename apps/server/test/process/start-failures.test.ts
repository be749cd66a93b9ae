import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestPostgresSchema } from '@uas/adapters-persistence/testing';
import { ServerProcesses } from '../../../../scripts/release-process';

/** A database name on the tests' PostgreSQL server that no database has. */
async function missingDatabaseUrl(): Promise<string> {
  const { serverUrl, drop } = await createTestPostgresSchema();
  await drop();
  const missing = new URL(serverUrl);
  missing.pathname = `/uas_missing_${process.pid}`;
  return missing.toString();
}

/** No start failure may show a stack trace; the operator gets a sentence, not the service's insides. */
const STACK_FRAME = /^\s+at /m;

describe('a start that must fail', { timeout: 60_000 }, () => {
  const servers = new ServerProcesses();
  afterEach(() => servers.cleanup());

  async function sqliteEnv() {
    const dir = await servers.tempDir();
    return { dir, env: { DATABASE_URL: `sqlite:${join(dir, 'app.db')}`, ADMIN_KEY_PATH: join(dir, 'admin.key') } };
  }

  it.each([
    ['is not JSON', '{"email": "admin@example.com", "password": "half-written'],
    ['lacks a string password', '{"email": "admin@example.com", "password": 12345678}\n'],
    ['holds a password too short to use', '{"email": "admin@example.com", "password": "short"}\n'],
  ])(
    'stops when the admin key file %s, naming its path, and leaves the file byte for byte as it was',
    async (_, content) => {
      const { env } = await sqliteEnv();
      await writeFile(env.ADMIN_KEY_PATH, content, { mode: 0o640 });
      const before = await stat(env.ADMIN_KEY_PATH);

      const { exit, stderr, stdout } = await servers.runToExit(env);

      expect(exit.code).not.toBe(0);
      expect(stderr).toContain(env.ADMIN_KEY_PATH);
      expect(stderr).not.toMatch(STACK_FRAME);
      expect(`${stdout}${stderr}`).not.toContain('half-written');
      expect(await readFile(env.ADMIN_KEY_PATH, 'utf8')).toBe(content);
      const after = await stat(env.ADMIN_KEY_PATH);
      expect([after.mode, after.mtimeMs, after.ino]).toEqual([before.mode, before.mtimeMs, before.ino]);
    },
  );

  it.each<[string, Record<string, string>]>([
    ['PORT', { PORT: 'abc' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://app:hunter2@db.example.com/app' }],
    ['BCRYPT_COST', { BCRYPT_COST: '99' }],
    ['CORS_ORIGINS (a path after the origin)', { CORS_ORIGINS: 'https://app.example.com/login' }],
    ['PORT and LOG_LEVEL, both at once', { PORT: '70000', LOG_LEVEL: 'loud' }],
  ])('stops on an invalid %s, naming the variable, before touching any file', async (_, invalid) => {
    const { dir, env } = await sqliteEnv();

    const { exit, stderr, stdout } = await servers.runToExit({ ...env, ...invalid });

    expect(exit.code).not.toBe(0);
    for (const name of Object.keys(invalid)) expect(stderr).toMatch(new RegExp(`^\\s+- ${name} `, 'm'));
    expect(stderr).not.toMatch(STACK_FRAME);
    expect(`${stdout}${stderr}`).not.toContain('hunter2');
    expect(await readdir(dir)).toEqual([]);
  });

  it('stops when PostgreSQL cannot be reached, saying where it looked and never showing the password', async () => {
    const { env } = await sqliteEnv();

    const started = Date.now();
    const { exit, stderr, stdout } = await servers.runToExit({
      ...env,
      DATABASE_URL: 'postgres://uas:pg-secret-pw@127.0.0.1:1/uas',
    });

    expect(exit.code).not.toBe(0);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(stderr).toContain('127.0.0.1:1');
    expect(stderr).toContain('ECONNREFUSED');
    expect(stderr).toContain('start PostgreSQL there, or correct the host and port in DATABASE_URL');
    expect(stderr).not.toMatch(STACK_FRAME);
    expect(`${stdout}${stderr}`).not.toContain('pg-secret-pw');
  });

  it.each([
    [
      'a database missing on a running PostgreSQL',
      missingDatabaseUrl,
      'That database does not exist on the server: create it (`createdb <name>`',
    ],
    [
      'a PostgreSQL host name that does not resolve',
      async () => 'postgres://uas@no-such-host.invalid/uas',
      'The host name in DATABASE_URL cannot be resolved',
    ],
  ])('stops on %s, naming DATABASE_URL and what to do', async (_, url, hint) => {
    const { env } = await sqliteEnv();

    const { exit, stderr } = await servers.runToExit({ ...env, DATABASE_URL: await url() });

    expect(exit.code).not.toBe(0);
    expect(stderr).toContain(hint);
    expect(stderr).not.toMatch(STACK_FRAME);
  });

  it('stops when its port is taken, naming PORT and what to do', async () => {
    const { env } = await sqliteEnv();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const { exit, stderr } = await servers.runToExit({ ...env, PORT: String(port) });

      expect(exit.code).not.toBe(0);
      expect(stderr).toContain(
        `The service could not listen on 127.0.0.1:${port} (EADDRINUSE): port ${port} on 127.0.0.1 is already in use by another process: stop it, or set PORT to a free port.`,
      );
      expect(stderr).not.toMatch(STACK_FRAME);
    } finally {
      taken.close();
    }
  });

  it('stops when HOST is not an address of this machine, naming HOST', async () => {
    const { env } = await sqliteEnv();

    // 192.0.2.1 is TEST-NET-1: documentation only, never assigned to a machine.
    const { exit, stderr } = await servers.runToExit({ ...env, HOST: '192.0.2.1' });

    expect(exit.code).not.toBe(0);
    expect(stderr).toContain('(EADDRNOTAVAIL): 192.0.2.1 is not an address of this machine: set HOST');
    expect(stderr).not.toMatch(STACK_FRAME);
  });
});
