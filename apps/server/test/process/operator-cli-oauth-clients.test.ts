import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { cliWorkspace, runCli } from '../support/operator-cli';
import { storedData } from '../support/stored-data';
import { BACKENDS } from '../support/test-application';

const SECRET = /^[A-Za-z0-9_-]{43}$/;

describe.each(BACKENDS)('uas oauth-clients on %s', { timeout: 120_000 }, (backend) => {
  const { freshEnv } = cliWorkspace(backend);

  it('creates a client printing its secret once, never stored in clear; updates, rotates, lists and deletes it', async () => {
    const env = await freshEnv();
    const create = ['oauth-clients', 'create', 'Acme CRM', '--type', 'confidential'];
    const refused = await runCli([...create, '--redirect-uri', 'JavaScript:alert(1)'], env);
    expect([refused.code, refused.stderr]).toEqual([2, expect.stringMatching(/redirect_uris entry 0/)]);

    const created = await runCli([...create, '--redirect-uri', 'https://crm.example.com/cb', '--scopes', 'email'], env);
    expect(created.code, created.stderr).toBe(0);
    const { client_secret: secret, ...client } = JSON.parse(created.stdout);
    expect(secret).toMatch(SECRET);
    expect(client).toMatchObject({
      name: 'Acme CRM',
      type: 'confidential',
      application_type: 'web',
      redirect_uris: ['https://crm.example.com/cb'],
      scopes: ['openid', 'email'],
      first_party: false,
      id_token_signed_response_alg: null,
    });

    const updated = await runCli(
      [
        ...['oauth-clients', 'update', client.id, '--redirect-uri', 'https://crm.example.com/v2', '--first-party'],
        ...['--id-token-alg', 'RS256'],
      ],
      env,
    );
    expect(updated.code, updated.stderr).toBe(0);
    expect(JSON.parse(updated.stdout)).toMatchObject({
      redirect_uris: ['https://crm.example.com/v2'],
      first_party: true,
      id_token_signed_response_alg: 'RS256',
    });
    const badAlgorithm = await runCli(['oauth-clients', 'update', client.id, '--id-token-alg', 'none'], env);
    expect([badAlgorithm.code, badAlgorithm.stderr]).toEqual([
      2,
      expect.stringMatching(/id_token_signed_response_alg/),
    ]);

    const rotated = await runCli(['oauth-clients', 'rotate-secret', client.id], env);
    expect(rotated.code, rotated.stderr).toBe(0);
    const newSecret = JSON.parse(rotated.stdout).client_secret;
    expect(newSecret).toMatch(SECRET);
    expect(newSecret).not.toBe(secret);

    const listed = await runCli(['oauth-clients', 'list'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject({ id: client.id, first_party: true });
    const quiet = [refused, updated, listed].map(({ stdout, stderr }) => stdout + stderr).join('\n');
    for (const value of [secret, newSecret]) {
      expect(quiet).not.toContain(value);
      expect(await storedData(loadConfig(env))).not.toContain(value);
    }

    const deleted = await runCli(['oauth-clients', 'delete', client.id], env);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect((await runCli(['oauth-clients', 'list'], env)).stdout).toBe('');
    expect((await runCli(['oauth-clients', 'delete', client.id], env)).code).toBe(2);
    expect((await runCli(['oauth-clients', 'delete', 'not-an-id'], env)).code).toBe(2);
  });
});
