import { describe, expect, it } from 'vitest';
import { cliWorkspace, runCli } from '../support/operator-cli';
import { BACKENDS } from '../support/test-application';

const lines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));

describe.each(BACKENDS)('uas webhooks on %s', { timeout: 120_000 }, (backend) => {
  const { freshEnv } = cliWorkspace(backend);

  it('creates an endpoint and prints its secret once; lists, rotates, replays and deletes it', async () => {
    const env = await freshEnv();
    expect((await runCli(['users', 'create', '--email', 'carol@example.com'], env)).code).toBe(0);
    const url = 'https://hooks.example.com/billing';
    const created = await runCli(
      ['webhooks', 'create', url, '--events', 'user.created,user.deleted', '--description', 'Billing'],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    const endpoint = JSON.parse(created.stdout);
    expect(endpoint).toMatchObject({
      url,
      events: ['user.created', 'user.deleted'],
      enabled: true,
      description: 'Billing',
      secret: expect.stringMatching(/^whsec_/),
    });

    const listed = await runCli(['webhooks', 'list'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(lines(listed.stdout)).toEqual([
      expect.objectContaining({ id: endpoint.id, url, events: ['user.created', 'user.deleted'], enabled: true }),
    ]);
    expect(listed.stdout).not.toContain(endpoint.secret);

    const rotated = await runCli(['webhooks', 'rotate-secret', endpoint.id], env);
    expect(rotated.code, rotated.stderr).toBe(0);
    const { secret } = JSON.parse(rotated.stdout);
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(endpoint.secret);

    // A new endpoint receives no backlog; a replay from number 0 delivers the user created before it.
    const replayed = await runCli(['webhooks', 'replay', endpoint.id, '--since', '0'], env);
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(JSON.parse(replayed.stdout)).toEqual({ queued: 1 });

    const deleted = await runCli(['webhooks', 'delete', endpoint.id], env);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect((await runCli(['webhooks', 'list'], env)).stdout).toBe('');
    // What is gone, or never was, is a usage error.
    expect((await runCli(['webhooks', 'delete', endpoint.id], env)).code).toBe(2);
    expect((await runCli(['webhooks', 'rotate-secret', endpoint.id], env)).code).toBe(2);
  });

  it('refuses an http URL unless the operator allows it, an unknown event and a bad number, with exit 2', async () => {
    const env = await freshEnv();
    const http = await runCli(['webhooks', 'create', 'http://hooks.example.com/x'], env);
    expect([http.code, http.stdout]).toEqual([2, '']);
    expect(http.stderr).toMatch(/https/);
    const allowed = await runCli(['webhooks', 'create', 'http://hooks.example.com/x'], {
      ...env,
      WEBHOOK_ALLOW_HTTP: 'true',
    });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(JSON.parse(allowed.stdout)).toMatchObject({ events: ['*'] });

    const unknown = await runCli(
      ['webhooks', 'create', 'https://hooks.example.com/y', '--events', 'user.exploded'],
      env,
    );
    expect([unknown.code, unknown.stdout]).toEqual([2, '']);
    const { id } = JSON.parse(allowed.stdout);
    expect((await runCli(['webhooks', 'replay', id, '--since', '-1'], env)).code).toBe(2);
    expect((await runCli(['webhooks', 'replay', id], env)).code).toBe(2);
  });
});
