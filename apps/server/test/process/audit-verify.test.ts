import { describe, expect, it } from 'vitest';
import { openDatabase } from '@uas/adapters-persistence';
import { sqlAuditTampering } from '@uas/adapters-persistence/testing';
import { loadConfig } from '../../src/config';
import { EXIT } from '../../src/cli/exit-codes';
import { cliWorkspace, runCli } from '../support/operator-cli';
import { BACKENDS } from '../support/test-application';

describe.each(BACKENDS)('uas audit verify on %s', { timeout: 120_000 }, (backend) => {
  const { freshEnv } = cliWorkspace(backend);

  /** A database with a few events written by the CLI itself: key rotations and user creations. */
  async function trail(): Promise<Record<string, string>> {
    const env = await freshEnv();
    for (const args of [
      ['keys', 'rotate'],
      ['users', 'create', '--email', 'a@example.com'],
      ['users', 'create', '--email', 'b@example.com'],
      ['keys', 'rotate'],
    ]) {
      const result = await runCli(args, env);
      expect(result.code, result.stderr).toBe(0);
    }
    return env;
  }

  async function withDatabase<T>(
    env: Record<string, string>,
    use: (database: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>,
  ) {
    const config = loadConfig(env);
    const database = await openDatabase(config.database, { poolSize: 1, schema: config.databaseSchema });
    try {
      return await use(database);
    } finally {
      await database.close();
    }
  }
  const tamper = (env: Record<string, string>) =>
    sqlAuditTampering({ url: env.DATABASE_URL!, ...(env.DATABASE_SCHEMA ? { schema: env.DATABASE_SCHEMA } : {}) });
  const eventAt = (env: Record<string, string>, seq: number) =>
    withDatabase(env, async (database) => (await database.repositories.audit.chain(seq - 1, 1))[0]!);

  it('passes an untouched trail, naming its length and head', async () => {
    const env = await trail();
    const result = await runCli(['audit', 'verify'], env);
    expect(result.code, result.stderr).toBe(EXIT.ok);
    expect(result.stdout).toMatch(/^The audit trail verifies: 4 events, 1 to 4\. Head hash: [0-9a-f]{64}\.\n$/);
  });

  it.each([
    [
      'an edited event',
      (t: ReturnType<typeof tamper>) => t.setClientAddress(2, '192.0.2.1'),
      2,
      /content does not match its hash/,
    ],
    ['a deleted event', (t: ReturnType<typeof tamper>) => t.remove(2), 3, /missing or moved/],
    ['two events swapped', (t: ReturnType<typeof tamper>) => t.swap(2, 3), 2, /hash of the event before it/],
  ])('fails on %s, naming the first broken event, with exit 5', async (_, change, seq, reason) => {
    const env = await trail();
    await change(tamper(env));
    const named = await eventAt(env, seq);
    const result = await runCli(['audit', 'verify'], env);
    expect(result.code).toBe(EXIT.tampered);
    expect(result.stderr).toContain(`The audit trail is broken at event ${seq} (id ${named.id}): `);
    expect(result.stderr).toMatch(reason);
    expect(result.stdout).toBe('');
  });

  it('still passes after pruning, which records where it cut', async () => {
    const env = await trail();
    const pruned = await withDatabase(env, (database) =>
      database.repositories.audit.prune(new Date(Date.now() + 60_000)),
    );
    expect(pruned).toBe(4);
    expect((await runCli(['users', 'create', '--email', 'c@example.com'], env)).code).toBe(0);
    const result = await runCli(['audit', 'verify'], env);
    expect(result.code, result.stderr).toBe(EXIT.ok);
    expect(result.stdout).toContain('verifies: 1 event, 5 to 5; events 1 to 4 were pruned, as recorded.');
  });
});
