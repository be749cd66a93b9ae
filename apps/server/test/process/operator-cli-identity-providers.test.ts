import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { cliWorkspace, runCli } from '../support/operator-cli';
import { storedData } from '../support/stored-data';
import { BACKENDS } from '../support/test-application';

const SECRET = 'gh-secret-from-stdin-3f9a0c';

describe.each(BACKENDS)('uas identity-providers on %s', { timeout: 120_000 }, (backend) => {
  const { freshEnv } = cliWorkspace(backend);

  it('creates a provider with its secret from stdin, never printed or stored in clear; lists and deletes it', async () => {
    const env = await freshEnv();
    const args = ['identity-providers', 'create', 'github', '--kind', 'github', '--client-id', 'Iv1.abc'];
    const refused = await runCli(args, env);
    expect([refused.code, refused.stderr]).toEqual([2, expect.stringMatching(/client_secret is required/)]);

    const created = await runCli([...args, '--client-secret-stdin', '--scopes', 'read:org'], env, `${SECRET}\n`);
    expect(created.code, created.stderr).toBe(0);
    const provider = JSON.parse(created.stdout);
    expect(provider).toMatchObject({
      slug: 'github',
      kind: 'github',
      client_id: 'Iv1.abc',
      client_secret_set: true,
      scopes: ['read:org'],
      callback_url: expect.stringMatching(/\/v1\/oauth\/github\/callback$/),
    });
    const again = await runCli([...args, '--client-secret-stdin'], env, SECRET);
    expect([again.code, again.stderr]).toEqual([2, expect.stringMatching(/slug/)]);

    const listed = await runCli(['identity-providers', 'list'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual(provider);
    const printed = [created, again, listed].map(({ stdout, stderr }) => stdout + stderr).join('\n');
    expect(printed).not.toContain(SECRET);
    expect(await storedData(loadConfig(env))).not.toContain(SECRET);

    const deleted = await runCli(['identity-providers', 'delete', provider.id], env);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect((await runCli(['identity-providers', 'list'], env)).stdout).toBe('');
    expect((await runCli(['identity-providers', 'delete', provider.id], env)).code).toBe(2);
  });
});
