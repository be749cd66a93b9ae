import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { bearer } from '@uas/adapters-http/testing';
import { AdminClient } from '../support/admin-client';
import { storedData } from '../support/stored-data';
import { BACKENDS, startTestApplication, type TestApplication } from '../support/test-application';

interface WebhookResource {
  id: string;
  attributes: { url: string; events: string[]; enabled: boolean; secret?: string };
}

const DAY_MS = 24 * 3600_000;
const document = (attributes: Record<string, unknown>) => ({ data: { type: 'webhooks', attributes } });
/** A secret's key: what must appear nowhere but in its one answer. */
const keyOf = (secret: string) => secret.slice('whsec_'.length);

describe.each(BACKENDS)('webhook endpoints on %s', (backend) => {
  let t: TestApplication;
  let client: AdminClient;
  let token: string;
  beforeAll(async () => {
    t = await startTestApplication(backend);
    client = new AdminClient(t);
    token = await client.adminToken();
  }, 60_000);
  afterAll(async () => t?.close());

  async function create(attributes: Record<string, unknown>) {
    const response = await client.send('POST', '/v1/admin/webhooks', document(attributes), token);
    expect(response.status).toBe(201);
    return ((await response.json()) as { data: WebhookResource }).data;
  }
  const stored = (id: string) => t.useCases.webhooks.find(id);
  const rotate = (id: string) =>
    client.request(`/v1/admin/webhooks/${id}/secret`, { method: 'POST', headers: bearer(token) });

  it('seals the secret in the key ring: the database holds no trace of it, the worker opens it', async () => {
    const webhook = await create({ url: 'https://crm.example.com/hooks', events: ['user.created'] });
    const secret = webhook.attributes.secret!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(await storedData(loadConfig(t.env))).not.toContain(keyOf(secret));
    expect(await t.useCases.webhooks.signingSecrets(await stored(webhook.id))).toEqual([secret]);
    expect(t.logs.join('\n')).not.toContain(keyOf(secret));
  });

  it('rotates: the new secret and the replaced one sign for 24 hours, then the new one alone', async () => {
    const { id, attributes } = await create({ url: 'https://billing.example.com/in', events: ['*'] });
    const response = await rotate(id);
    expect(response.status).toBe(200);
    const rotated = ((await response.json()) as { data: WebhookResource }).data.attributes.secret!;
    const webhook = await stored(id);
    expect(await t.useCases.webhooks.signingSecrets(webhook)).toEqual([rotated, attributes.secret]);
    t.clock.advance(DAY_MS / 1000);
    expect(await t.useCases.webhooks.signingSecrets(webhook)).toEqual([rotated]);
    const all = `${t.logs.join('\n')}\n${await storedData(loadConfig(t.env))}`;
    for (const secret of [rotated, attributes.secret!]) expect(all).not.toContain(keyOf(secret));
    token = await client.adminToken();
  });

  it.each([
    'https://127.0.0.1/',
    'https://[::1]/',
    'https://169.254.169.254/latest',
    'https://10.0.0.1/',
    'https://0.0.0.0/',
    'https://[::]/',
    'https://[::ffff:127.0.0.1]/',
    'https://2130706433/',
    'https://0x7f.1/',
    'https://0177.0.0.1/',
    'https://127.1/',
    'https://[fd00:ec2::254]/',
    'https://100.100.100.200/',
    'https://192.0.2.2:3398/own-interface',
    'https://[64:ff9b::7f00:1]/',
  ])('refuses %s, an address literal no webhook may reach, at registration and on PATCH (422)', async (url) => {
    const problem = async (response: Response) => {
      expect(response.status).toBe(422);
      const { errors } = (await response.json()) as { errors: { detail: string; source: { pointer: string } }[] };
      expect(errors).toEqual([
        expect.objectContaining({
          source: { pointer: '/data/attributes/url' },
          detail: expect.stringContaining('WEBHOOK_ALLOW_PRIVATE_ADDRESSES'),
        }),
      ]);
    };
    await problem(await client.send('POST', '/v1/admin/webhooks', document({ url, events: ['*'] }), token));
    const { id } = await create({ url: 'https://names.example.com/hooks', events: ['*'] });
    await problem(await client.send('PATCH', `/v1/admin/webhooks/${id}`, document({ url }), token));
  });

  it('audits every change in its transaction, never with a secret', async () => {
    const { id } = await create({ url: 'https://audit.example.com/in', events: ['user.deleted'] });
    expect((await client.send('PATCH', `/v1/admin/webhooks/${id}`, document({ enabled: false }), token)).status).toBe(
      200,
    );
    expect((await rotate(id)).status).toBe(200);
    expect((await client.delete(`/v1/admin/webhooks/${id}`, token)).status).toBe(204);
    const response = await client.get(`/v1/admin/audit-events?filter[target]=${id}`, token);
    const events = ((await response.json()) as { data: { attributes: { action: string; changes: unknown } }[] }).data;
    expect(events.map((event) => event.attributes.action)).toEqual([
      'webhook.deleted',
      'webhook.secret_rotated',
      'webhook.updated',
      'webhook.created',
    ]);
    expect(events[2]!.attributes.changes).toEqual({ enabled: { before: true, after: false } });
    expect(JSON.stringify(events)).not.toContain('whsec_');
    client.expectCleanLogs();
  });
});
