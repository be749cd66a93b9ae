import { beforeEach, describe, expect, it } from '../testing/test-api.ts';
import { buildDomain, issueSources, pointerTo, rejectionOf, type Domain } from '../testing/domain-fixture.ts';
import type { Initiator } from '../audit/audit-event.ts';
import { NotFoundError } from '../shared/errors.ts';
import { WEBHOOK_EVENT_TYPES } from './webhook-events.ts';
import { webhookSigningSecrets } from './webhook-secrets.ts';

const BY: Initiator = {
  actor: { type: 'admin', id: '00000000-0000-4000-8000-0000000000aa' },
  request: { requestId: 'r', clientAddress: null, userAgent: null },
};
const URL = 'https://crm.example.com/hooks/uas';
/** Standard Webhooks' secret: `whsec_` and the base64 of 32 bytes. */
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const DAY_MS = 24 * 3600_000;

describe('WebhookService', () => {
  let domain: Domain;
  beforeEach(() => {
    domain = buildDomain();
  });

  const events = async () => (await domain.repositories.audit.list({ page: 1, size: 100 })).events;
  const create = (attributes: Partial<{ url: string; events: string[]; enabled: boolean; description: string }> = {}) =>
    domain.webhooks.create({ url: URL, events: ['user.created'], ...attributes }, BY);

  it('creates an enabled endpoint with a new whsec_ secret, stored only sealed, and audits it without the secret', async () => {
    const { webhook, secret } = await create({ events: ['user.created', 'user.deleted', 'user.created'] });
    expect(secret).toMatch(SECRET);
    expect(webhook).toMatchObject({
      url: URL,
      events: ['user.created', 'user.deleted'],
      enabled: true,
      description: '',
      previousSecret: null,
      failingSince: null,
      disabledReason: null,
    });
    expect(JSON.stringify(webhook)).not.toContain(secret.slice(6));
    expect(await webhookSigningSecrets(domain.box, webhook, domain.clock.now())).toEqual([secret]);
    const [created] = await events();
    expect(created).toMatchObject({
      action: 'webhook.created',
      actor: BY.actor,
      target: { type: 'webhooks', id: webhook.id },
      changes: {
        url: { before: null, after: URL },
        events: { before: null, after: ['user.created', 'user.deleted'] },
        enabled: { before: null, after: true },
      },
    });
    expect(JSON.stringify(await events())).not.toContain(secret.slice(6));
  });

  it('makes a different secret for every endpoint', async () => {
    const secrets = new Set(await Promise.all([1, 2, 3, 4].map(async () => (await create()).secret)));
    expect(secrets.size).toBe(4);
  });

  it('refuses what is not an absolute https URL without credentials, each with its pointer', async () => {
    for (const url of [
      'crm.example.com/hooks',
      '/hooks',
      'http://crm.example.com/hooks',
      'ftp://crm.example.com/hooks',
      'https://user:pass@crm.example.com/hooks',
      'https://token@crm.example.com/hooks',
      `https://crm.example.com/${'a'.repeat(2048)}`,
    ]) {
      expect({ url, sources: await issueSources(create({ url })) }).toEqual({ url, sources: [pointerTo('url')] });
    }
  });

  it('accepts an http URL where the operator allows it (WEBHOOK_ALLOW_HTTP)', async () => {
    domain = buildDomain({ webhookUrls: { allowHttp: true } });
    expect((await create({ url: 'http://receiver.internal:8080/in' })).webhook.url).toBe(
      'http://receiver.internal:8080/in',
    );
  });

  it('refuses a host the operator refuses as an address, asking it of the host as the URL parser writes it', async () => {
    const asked: string[] = [];
    const refusedAddress = (host: string) => (asked.push(host), host === '127.0.0.1' ? 'a loopback address' : null);
    domain = buildDomain({ webhookUrls: { allowHttp: false, refusedAddress } });
    expect(await issueSources(create({ url: 'https://0x7f.1/in' }))).toEqual([pointerTo('url')]);
    expect((await create({ url: 'https://crm.example.com/in' })).webhook.url).toBe('https://crm.example.com/in');
    expect(asked).toEqual(['127.0.0.1', 'crm.example.com']);
  });

  it('refuses no events, unknown event types, and "*" beside others', async () => {
    for (const events of [[], ['user.exploded'], ['*', 'user.created'], ['admin.login']]) {
      expect({ events, sources: await issueSources(create({ events })) }).toEqual({
        events,
        sources: [pointerTo('events')],
      });
    }
    expect((await create({ events: ['*'] })).webhook.events).toEqual(['*']);
    expect((await create({ events: [...WEBHOOK_EVENT_TYPES] })).webhook.events).toEqual([...WEBHOOK_EVENT_TYPES]);
  });

  it('requires url and events, bounds the description, and stores nothing when refused', async () => {
    const issues = await issueSources(
      domain.webhooks.create({ description: 'x'.repeat(501) } as unknown as { url: string; events: string[] }, BY),
    );
    expect(issues).toEqual([pointerTo('url'), pointerTo('events'), pointerTo('description')]);
    expect(await issueSources(create({ description: 'nul\u0000' }))).toEqual([pointerTo('description')]);
    expect(await domain.webhooks.list()).toEqual([]);
    expect(await events()).toEqual([]);
  });

  it('updates what the patch names, audits before and after, and answers an unchanged endpoint with no event', async () => {
    const { webhook } = await create();
    domain.clock.advance(5);
    const updated = await domain.webhooks.update(
      webhook.id,
      { url: 'https://billing.example.com/in', events: ['*'], description: 'Billing' },
      BY,
    );
    expect(updated).toMatchObject({
      url: 'https://billing.example.com/in',
      events: ['*'],
      enabled: true,
      description: 'Billing',
      secret: webhook.secret,
      updated: domain.clock.now(),
    });
    const [event] = await events();
    expect(event).toMatchObject({
      action: 'webhook.updated',
      changes: {
        url: { before: URL, after: 'https://billing.example.com/in' },
        events: { before: ['user.created'], after: ['*'] },
        description: { before: '', after: 'Billing' },
      },
    });
    expect(await domain.webhooks.update(webhook.id, { description: 'Billing' }, BY)).toEqual(updated);
    expect((await events()).length).toBe(2);
  });

  it('validates a patch as a creation, and answers 404 for an unknown endpoint', async () => {
    const { webhook } = await create();
    expect(
      await issueSources(domain.webhooks.update(webhook.id, { url: 'http://x.example.com', events: [] }, BY)),
    ).toEqual([pointerTo('url'), pointerTo('events')]);
    await rejectionOf(
      domain.webhooks.update('00000000-0000-4000-8000-000000000999', { enabled: false }, BY),
      NotFoundError,
    );
    await rejectionOf(domain.webhooks.find('00000000-0000-4000-8000-000000000999'), NotFoundError);
    await rejectionOf(domain.webhooks.delete('00000000-0000-4000-8000-000000000999', BY), NotFoundError);
    await rejectionOf(domain.webhooks.rotateSecret('00000000-0000-4000-8000-000000000999', BY), NotFoundError);
  });

  it('enabling an endpoint the service disabled starts it afresh; an admin disabling one gives no reason', async () => {
    const { webhook } = await create();
    await domain.repositories.webhooks.update(webhook.id, (current) => ({
      webhook: { ...current, enabled: false, disabledReason: 'failing', failingSince: domain.clock.now() },
      audit: null,
    }));
    expect(await domain.webhooks.update(webhook.id, { enabled: false }, BY)).toMatchObject({
      disabledReason: 'failing',
    });
    expect(await domain.webhooks.update(webhook.id, { enabled: true }, BY)).toMatchObject({
      enabled: true,
      disabledReason: null,
      failingSince: null,
    });
    expect(await domain.webhooks.update(webhook.id, { enabled: false }, BY)).toMatchObject({
      enabled: false,
      disabledReason: null,
    });
  });

  it('rotates the secret: the new one is answered once, and the old one signs beside it for 24 hours', async () => {
    const { webhook, secret: first } = await create();
    const { webhook: rotated, secret: second } = await domain.webhooks.rotateSecret(webhook.id, BY);
    expect(second).toMatch(SECRET);
    expect(second).not.toBe(first);
    expect(rotated.previousSecretUntil).toEqual(new Date(domain.clock.now().getTime() + DAY_MS));
    const secretsAt = (offsetMs: number) =>
      webhookSigningSecrets(domain.box, rotated, new Date(domain.clock.now().getTime() + offsetMs));
    expect(await secretsAt(0)).toEqual([second, first]);
    expect(await secretsAt(DAY_MS - 1)).toEqual([second, first]);
    expect(await secretsAt(DAY_MS)).toEqual([second]);
    const [event] = await events();
    expect(event).toMatchObject({ action: 'webhook.secret_rotated', target: { type: 'webhooks', id: webhook.id } });
    expect(JSON.stringify(await events())).not.toMatch(/whsec_/);
  });

  it('rotating again drops the secret rotated out before', async () => {
    const { webhook } = await create();
    const { secret: second } = await domain.webhooks.rotateSecret(webhook.id, BY);
    const { webhook: rotated, secret: third } = await domain.webhooks.rotateSecret(webhook.id, BY);
    expect(await webhookSigningSecrets(domain.box, rotated, domain.clock.now())).toEqual([third, second]);
  });

  it('deletes an endpoint with an event of what it was', async () => {
    const { webhook } = await create();
    await domain.webhooks.delete(webhook.id, BY);
    await rejectionOf(domain.webhooks.find(webhook.id), NotFoundError);
    const [event] = await events();
    expect(event).toMatchObject({ action: 'webhook.deleted', changes: { url: { before: URL, after: null } } });
  });
});
