import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@uas/adapters-persistence';
import { loadConfig } from '../../src/config';
import { cliWorkspace, finished, runCli, spawnCli } from '../support/operator-cli';
import { ServerProcesses } from '../../../../scripts/release-process';
import { BACKENDS } from '../support/test-application';

const HASH = '$2y$04$xVFWQ0oA6sigoj8A4s1b0OZOf/1zWEntqxyBjFGIuejjXTgThwCuK';
const ndjson = (records: object[]) => records.map((record) => `${JSON.stringify(record)}\n`).join('');
const record = (i: number) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  name: `Person ${i}`,
  email: `person${i}@example.com`,
  password_hash: HASH,
  metadata: { n: i },
  app: {},
  active: 1,
  // Some unverified, so an export's `false` is seen to come back through NDJSON and CSV alike.
  email_verified: i % 3 === 0 ? false : new Date(Date.UTC(2024, 0, 1, 1, 0, 0, i)).toISOString(),
  created: new Date(Date.UTC(2024, 0, 1, 0, 0, 0, i)).toISOString(),
  updated: new Date(Date.UTC(2024, 0, 2, 0, 0, 0, i)).toISOString(),
});

describe.each(BACKENDS)('the operator CLI on %s', { timeout: 120_000 }, (backend) => {
  const { freshEnv, tempDir } = cliWorkspace(backend);
  const exported = async (env: Record<string, string>, ...args: string[]) => {
    const result = await runCli(['users', 'export', '--quiet', ...args], env);
    expect(result.code, result.stderr).toBe(0);
    return result.stdout;
  };

  it('imports NDJSON from stdin: bad lines on stderr with their reason, counts on stdout, exit 3', async () => {
    const env = await freshEnv();
    const input = `${JSON.stringify(record(1))}\n{"email":"nope","password":"correct horse"}\n\n{broken\n${JSON.stringify({ email: 'x@example.com', password: 'short' })}\n`;
    const dry = await runCli(['users', 'import', '-', '--dry-run', '--quiet'], env, input);
    expect(dry.code).toBe(3);
    expect(await exported(env)).toBe('');
    const result = await runCli(['users', 'import', '-', '--quiet'], env, input);
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({ created: 1, rejected: 3 });
    expect(result.stderr.trim().split('\n')).toEqual([
      'line 2: email must be a valid email address',
      'line 4: is not valid JSON',
      'line 5: password must be at least 8 bytes long',
    ]);
    expect(result.stderr + result.stdout).not.toContain('correct horse');
  });

  it('export with hashes, imported elsewhere, reproduces every user; so does CSV; a second run skips them all', async () => {
    const source = await freshEnv();
    const input = ndjson([1, 2, 3].map(record));
    expect((await runCli(['users', 'import', '-', '--quiet'], source, input)).code).toBe(0);
    const original = await exported(source, '--with-password-hashes');
    expect(
      original
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([1, 2, 3].map(record));

    const target = await freshEnv();
    const file = join(await tempDir(), 'users.ndjson');
    expect(
      (await runCli(['users', 'export', '--with-password-hashes', '--quiet', '--output', file], source)).code,
    ).toBe(0);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await runCli(['users', 'import', file, '--on-conflict', 'fail', '--quiet'], target)).code).toBe(0);
    expect(await exported(target, '--with-password-hashes')).toBe(original);
    const again = await runCli(['users', 'import', file, '--quiet'], target);
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, skipped: 3 });

    const csvTarget = await freshEnv();
    const csv = join(await tempDir(), 'users.csv');
    await writeFile(csv, await exported(source, '--with-password-hashes', '--format', 'csv'));
    expect((await readFile(csv, 'utf8')).split('\n')[0]).toBe(
      'id,name,email,metadata,app,active,email_verified,created,updated,password_hash',
    );
    expect((await runCli(['users', 'import', csv, '--quiet'], csvTarget)).code).toBe(0);
    expect(await exported(csvTarget, '--with-password-hashes')).toBe(original);
  });

  it.each(['ndjson', 'csv'])(
    'export without hashes (%s) over a world-readable file leaves it 0600, and imports elsewhere: users without a password, counted',
    async (format) => {
      const source = await freshEnv();
      expect((await runCli(['users', 'import', '-', '--quiet'], source, ndjson([1, 2, 3].map(record)))).code).toBe(0);
      const file = join(await tempDir(), `users.${format}`);
      await writeFile(file, 'an earlier export', { mode: 0o644 });
      const written = await runCli(['users', 'export', '--format', format, '--quiet', '--output', file], source);
      expect(written.code, written.stderr).toBe(0);
      expect((await stat(file)).mode & 0o777).toBe(0o600);

      const target = await freshEnv();
      const imported = await runCli(['users', 'import', file, '--on-conflict', 'fail', '--quiet'], target);
      expect(imported.code, imported.stderr).toBe(0);
      expect(JSON.parse(imported.stdout)).toMatchObject({ created: 3, createdWithoutPassword: 3, rejected: 0 });
      const { password_hash: _, ...withoutHash } = record(1);
      expect(JSON.parse((await exported(target)).split('\n')[0]!)).toEqual(withoutHash);
    },
  );

  it('--on-conflict fail stops with exit 4 at the existing user; update and skip exit 0', async () => {
    const env = await freshEnv();
    await runCli(['users', 'import', '-', '--quiet'], env, ndjson([record(1)]));
    const changed = ndjson([record(2), { ...record(1), name: 'Renamed' }]);
    const failed = await runCli(['users', 'import', '-', '--on-conflict', 'fail', '--quiet'], env, changed);
    expect([failed.code, failed.stderr.trim()]).toEqual([
      4,
      'Stopped at line 2: a user with this email or id exists already.',
    ]);
    expect(await exported(env)).not.toContain('person2@');
    const updated = await runCli(['users', 'import', '-', '--on-conflict', 'update', '--quiet'], env, changed);
    expect([updated.code, JSON.parse(updated.stdout)]).toEqual([
      0,
      expect.objectContaining({ created: 1, updated: 1 }),
    ]);
    expect(await exported(env, '--search', 'person1@')).toContain('"name":"Renamed"');
  });

  it('an import killed with SIGKILL mid-way and run again ends exactly as one clean run', async () => {
    const total = 6000;
    const batch = 250;
    const input = ndjson(Array.from({ length: total }, (_, i) => record(i)));
    const clean = await freshEnv();
    expect((await runCli(['users', 'import', '-', '--quiet', '--batch-size', String(batch)], clean, input)).code).toBe(
      0,
    );

    const env = await freshEnv();
    const database = await openDatabase(loadConfig(env).database, {
      poolSize: 1,
      schema: loadConfig(env).databaseSchema,
    });
    let seen = 0;
    try {
      const child = spawnCli(['users', 'import', '-', '--quiet', '--batch-size', String(batch)], env);
      const done = finished(child, input);
      // Kill as soon as some batches are in, long before all are.
      for (let tries = 0; tries < 2000 && seen === 0; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        seen = await database.repositories.imports
          .exportPage(null, total)
          .then((users) => users.length)
          .catch(() => 0);
      }
      child.kill('SIGKILL');
      expect((await done).signal).toBe('SIGKILL');
      const atKill = (await database.repositories.imports.exportPage(null, total)).length;
      expect(atKill).toBeGreaterThan(0);
      expect(atKill).toBeLessThan(total);
      expect(atKill % batch).toBe(0);
    } finally {
      await database.close();
    }
    const rerun = await runCli(['users', 'import', '-', '--quiet', '--batch-size', String(batch)], env, input);
    expect(rerun.code).toBe(0);
    expect(await exported(env, '--with-password-hashes')).toBe(await exported(clean, '--with-password-hashes'));
  });
});

describe('the operator CLI', { timeout: 60_000 }, () => {
  const dirs = new ServerProcesses();
  afterAll(() => dirs.cleanup());

  it('answers --help for every command with exit 0, and a usage error with exit 2', async () => {
    for (const command of [
      [],
      ['users', 'import'],
      ['users', 'export'],
      ['users', 'create'],
      ['users', 'ban'],
      ['users', 'unban'],
      ['admin', 'reset-password'],
      ['admins', 'list'],
      ['admins', 'invite'],
      ['keys', 'rotate'],
      ['webhooks', 'list'],
      ['webhooks', 'create'],
      ['webhooks', 'delete'],
      ['webhooks', 'rotate-secret'],
      ['webhooks', 'replay'],
      ['identity-providers', 'list'],
      ['identity-providers', 'create'],
      ['identity-providers', 'delete'],
      ['db', 'status'],
    ]) {
      const help = await runCli([...command, '--help'], {});
      expect([help.code, help.stdout]).toEqual([0, expect.stringMatching(/^Usage: uas/)]);
    }
    const wrong = await runCli(['users', 'import', '-', '--on-conflict', 'merge'], {});
    expect([wrong.code, wrong.stderr]).toEqual([2, expect.stringMatching(/merge/)]);
    expect((await runCli(['nonsense'], {})).code).toBe(2);
  });

  it('names DATABASE_URL and what to do when PostgreSQL cannot be reached, never the password or a stack', async () => {
    const dir = await dirs.tempDir();
    const env = { DATABASE_URL: 'postgres://uas:pg-secret-pw@127.0.0.1:1/uas', ADMIN_KEY_PATH: join(dir, 'admin.key') };
    for (const command of [
      ['db', 'status'],
      ['users', 'import', '-', '--quiet'],
    ]) {
      const failed = await runCli(command, env, '{"email":"a@example.com"}\n');
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain('Cannot open the database (PostgreSQL at 127.0.0.1:1');
      expect(failed.stderr).toContain('start PostgreSQL there, or correct the host and port in DATABASE_URL');
      expect(failed.stderr).not.toMatch(/^\s+at /m);
      expect(`${failed.stdout}${failed.stderr}`).not.toContain('pg-secret-pw');
    }
  });

  it('db status changes nothing; db migrate brings the database up to date; users create, ban and unban and admin reset-password work', async () => {
    const dir = await dirs.tempDir();
    const env = { DATABASE_URL: `sqlite:${join(dir, 'app.db')}`, ADMIN_KEY_PATH: join(dir, 'admin.key') };
    const before = JSON.parse((await runCli(['db', 'status'], env)).stdout);
    expect(before).toMatchObject({ dialect: 'sqlite', applied: 0 });
    expect((await runCli(['db', 'migrate'], env)).code).toBe(0);
    expect(JSON.parse((await runCli(['db', 'status'], env)).stdout)).toEqual({
      dialect: 'sqlite',
      applied: before.pending.length,
      pending: [],
    });

    const created = await runCli(['users', 'create', '--email', 'Ops@Example.com', '--app', '{"plan":"pro"}'], env);
    expect(JSON.parse(created.stdout)).toMatchObject({ email: 'ops@example.com', password: expect.any(String) });
    expect((await runCli(['users', 'create', '--email', 'ops@example.com'], env)).code).toBe(4);

    const ban = ['users', 'ban', '--email', 'OPS@example.com', '--reason', 'chargeback'];
    const banned = await runCli([...ban, '--until', '2099-01-01T00:00:00.000Z'], env);
    expect(JSON.parse(banned.stdout)).toMatchObject({
      email: 'ops@example.com',
      banned: true,
      banned_until: '2099-01-01T00:00:00.000Z',
      ban_reason: 'chargeback',
    });
    expect((await runCli([...ban, '--until', '2001-01-01T00:00:00.000Z'], env)).code).toBe(2);
    expect((await runCli(['users', 'ban', '--email', 'nobody@example.com', '--reason', 'x'], env)).code).toBe(2);
    const unbanned = await runCli(['users', 'unban', '--email', 'ops@example.com'], env);
    expect(JSON.parse(unbanned.stdout)).toMatchObject({ banned: false, banned_until: null, ban_reason: null });

    expect((await runCli(['admin', 'reset-password'], env)).code).toBe(0);
    const first = JSON.parse(await readFile(env.ADMIN_KEY_PATH, 'utf8'));
    expect((await stat(env.ADMIN_KEY_PATH)).mode & 0o777).toBe(0o600);
    expect((await runCli(['admin', 'reset-password'], env)).code).toBe(0);
    const second = JSON.parse(await readFile(env.ADMIN_KEY_PATH, 'utf8'));
    expect(second.email).toBe(first.email);
    expect(second.password).not.toBe(first.password);

    const invited = await runCli(['admins', 'invite', 'Sam@Example.com', '--role', 'support'], env);
    expect(JSON.parse(invited.stdout)).toMatchObject({ email: 'sam@example.com', role: 'support' });
    expect((await runCli(['admins', 'invite', first.email, '--role', 'admin'], env)).code).toBe(4);
    expect((await runCli(['admins', 'invite', 'x@example.com', '--role', 'root'], env)).code).toBe(2);
    const listed = (await runCli(['admins', 'list'], env)).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(listed).toEqual([expect.objectContaining({ email: first.email, role: 'owner' })]);
  });
});
