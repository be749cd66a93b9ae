import type * as v from 'valibot';
import { beforeEach, describe, expect, it } from 'vitest';
import type {
  revealedWebhookDocumentSchema,
  webhookDocumentSchema,
  webhookListDocumentSchema,
} from '../presenters/webhook.presenter';
import { bearer, createTestApp, expectNoSecrets, jsonInit, type TestApp } from '../testing';

type Revealed = v.InferOutput<typeof revealedWebhookDocumentSchema>;
type WebhookDocument = v.InferOutput<typeof webhookDocumentSchema>;
type WebhookList = v.InferOutput<typeof webhookListDocumentSchema>;

const URL = 'https://crm.example.com/hooks/uas';
const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

let t: TestApp;
let admin: Record<string, string>;

beforeEach(async () => {
  t = await createTestApp();
  admin = bearer((await t.loginAdmin()).accessToken);
});

const document = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  data: { type: 'webhooks', ...extra, attributes },
});
const create = (attributes: Record<string, unknown>, extra?: Record<string, unknown>) =>
  t.app.request('/v1/admin/webhooks', jsonInit('POST', document(attributes, extra), admin));
const patch = (id: string, attributes: Record<string, unknown>, extra?: Record<string, unknown>) =>
  t.app.request(`/v1/admin/webhooks/${id}`, jsonInit('PATCH', document(attributes, extra), admin));
const get = (path: string) => t.app.request(path, { headers: admin });

async function created(attributes: Record<string, unknown> = {}) {
  const response = await create({ url: URL, events: ['user.created'], ...attributes });
  expect(response.status).toBe(201);
  return ((await response.json()) as Revealed).data;
}

/** Every place a secret must never appear after its one answer: the other answers and the log. */
async function expectSecretKept(secret: string, id: string) {
  for (const path of ['/v1/admin/webhooks', `/v1/admin/webhooks/${id}`, '/v1/admin/audit-events']) {
    await expectNoSecrets(await get(path), [secret, secret.slice('whsec_'.length)]);
  }
  expect(t.logger.text()).not.toContain(secret.slice('whsec_'.length));
}

describe('POST /v1/admin/webhooks', () => {
  it('answers 201 with the endpoint and its secret, once; Location names it', async () => {
    const response = await create({ url: URL, events: ['user.created', 'user.deleted'], description: 'CRM' });
    expect(response.status).toBe(201);
    const { data } = (await response.json()) as Revealed;
    expect(response.headers.get('location')).toBe(`/v1/admin/webhooks/${data.id}`);
    expect(data).toEqual({
      type: 'webhooks',
      id: data.id,
      attributes: {
        url: URL,
        events: ['user.created', 'user.deleted'],
        enabled: true,
        description: 'CRM',
        disabled_reason: null,
        failing_since: null,
        created: data.attributes.created,
        updated: data.attributes.created,
        secret: expect.stringMatching(SECRET),
      },
    });
    const { data: shown } = (await (await get(`/v1/admin/webhooks/${data.id}`)).json()) as WebhookDocument;
    const { secret, ...attributes } = data.attributes;
    expect(shown).toEqual({ ...data, attributes });
    await expectSecretKept(secret, data.id);
  });

  it.each([
    ['an http URL', { url: 'http://crm.example.com/in' }, '/data/attributes/url'],
    ['a relative URL', { url: '/in' }, '/data/attributes/url'],
    ['credentials in the URL', { url: 'https://user:pw@crm.example.com/in' }, '/data/attributes/url'],
    ['another scheme', { url: 'ftp://crm.example.com/in' }, '/data/attributes/url'],
    ['a URL that is no string', { url: 42 }, '/data/attributes/url'],
    ['no URL', { url: undefined }, '/data/attributes/url'],
    ['no events', { events: [] }, '/data/attributes/events'],
    ['an unknown event type', { events: ['user.created', 'user.exploded'] }, '/data/attributes/events'],
    ['"*" beside others', { events: ['*', 'user.created'] }, '/data/attributes/events'],
    ['events that are no list', { events: 'user.created' }, '/data/attributes/events'],
    ['events that are no strings', { events: [1] }, '/data/attributes/events/0'],
    ['no events at all', { events: undefined }, '/data/attributes/events'],
    ['enabled that is no boolean', { enabled: 'yes' }, '/data/attributes/enabled'],
    ['a description too long', { description: 'x'.repeat(501) }, '/data/attributes/description'],
    ['a secret of its own', { secret: 'whsec_mine' }, '/data/attributes/secret'],
    ['an unknown attribute', { cursor: 0 }, '/data/attributes/cursor'],
  ])('refuses %s with 422 and its pointer, storing nothing', async (_case, attributes, pointer) => {
    const response = await create({ url: URL, events: ['user.created'], ...attributes });
    expect(response.status).toBe(422);
    const { errors } = await response.json();
    expect(errors).toEqual([expect.objectContaining({ code: 'invalid_attribute', source: { pointer } })]);
    expect(((await (await get('/v1/admin/webhooks')).json()) as WebhookList).meta.total).toBe(0);
  });

  it('names every problem at once', async () => {
    const response = await create({ url: 'http://x.example.com', events: [] });
    expect((await response.json()).errors.map((error: { source: unknown }) => error.source)).toEqual([
      { pointer: '/data/attributes/url' },
      { pointer: '/data/attributes/events' },
    ]);
  });

  it('refuses another resource type with 409', async () => {
    const response = await t.app.request(
      '/v1/admin/webhooks',
      jsonInit('POST', { data: { type: 'users', attributes: { url: URL, events: ['*'] } } }, admin),
    );
    expect(response.status).toBe(409);
    expect((await response.json()).errors[0].code).toBe('resource_conflict');
  });

  it('accepts an http URL where the operator allows it', async () => {
    t = await createTestApp({}, 'open', { webhookUrls: { allowHttp: true } });
    admin = bearer((await t.loginAdmin()).accessToken);
    expect((await created({ url: 'http://receiver.internal:8080/in' })).attributes.url).toBe(
      'http://receiver.internal:8080/in',
    );
  });

  it('refuses a request without an admin token', async () => {
    const response = await t.app.request('/v1/admin/webhooks', jsonInit('POST', document({ url: URL, events: ['*'] })));
    expect(response.status).toBe(401);
  });
});

describe('GET /v1/admin/webhooks', () => {
  it('lists every endpoint, oldest first, without secrets', async () => {
    const first = await created({ description: 'first' });
    t.clock.advance(1);
    const second = await created({ events: ['*'] });
    const response = await get('/v1/admin/webhooks');
    expect(response.status).toBe(200);
    await expectNoSecrets(response, [first.attributes.secret, second.attributes.secret, 'whsec_']);
    const list = (await response.json()) as WebhookList;
    expect(list.data.map((webhook) => webhook.id)).toEqual([first.id, second.id]);
    expect(list.meta).toEqual({ total: 2 });
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of [UNKNOWN, 'not-a-uuid']) {
      const response = await get(`/v1/admin/webhooks/${id}`);
      expect(response.status).toBe(404);
      expect((await response.json()).errors[0].code).toBe('not_found');
    }
  });
});

describe('PATCH /v1/admin/webhooks/{id}', () => {
  it('changes what it names and leaves the rest', async () => {
    const webhook = await created({ description: 'CRM' });
    t.clock.advance(5);
    const response = await patch(webhook.id, { events: ['*'], enabled: false }, { id: webhook.id });
    expect(response.status).toBe(200);
    await expectNoSecrets(response, [webhook.attributes.secret, 'whsec_']);
    const { data } = (await response.json()) as WebhookDocument;
    expect(data.attributes).toMatchObject({ url: URL, events: ['*'], enabled: false, description: 'CRM' });
    expect(data.attributes.updated > webhook.attributes.updated).toBe(true);
  });

  it.each([
    ['an http URL', { url: 'http://crm.example.com/in' }, 422, '/data/attributes/url'],
    ['no events', { events: [] }, 422, '/data/attributes/events'],
    ['a secret', { secret: 'whsec_mine' }, 422, '/data/attributes/secret'],
    ['null', { description: null }, 422, '/data/attributes/description'],
  ])('refuses %s', async (_case, attributes, status, pointer) => {
    const webhook = await created();
    const response = await patch(webhook.id, attributes);
    expect(response.status).toBe(status);
    expect((await response.json()).errors[0].source).toEqual({ pointer });
  });

  it('refuses another id in the document with 409, and an unknown endpoint with 404', async () => {
    const webhook = await created();
    expect((await patch(webhook.id, { enabled: false }, { id: UNKNOWN })).status).toBe(409);
    expect((await patch(UNKNOWN, { enabled: false })).status).toBe(404);
  });
});

describe('POST /v1/admin/webhooks/{id}/secret', () => {
  it('answers a new secret, once, never the replaced one; neither shows anywhere again', async () => {
    const webhook = await created();
    const response = await t.app.request(`/v1/admin/webhooks/${webhook.id}/secret`, { method: 'POST', headers: admin });
    expect(response.status).toBe(200);
    await expectNoSecrets(response, [webhook.attributes.secret]);
    const { data } = (await response.json()) as Revealed;
    expect(data.id).toBe(webhook.id);
    expect(data.attributes.secret).toMatch(SECRET);
    expect(data.attributes.secret).not.toBe(webhook.attributes.secret);
    await expectSecretKept(data.attributes.secret, webhook.id);
    await expectSecretKept(webhook.attributes.secret, webhook.id);
  });

  it('answers 404 for an unknown endpoint', async () => {
    const response = await t.app.request(`/v1/admin/webhooks/${UNKNOWN}/secret`, { method: 'POST', headers: admin });
    expect(response.status).toBe(404);
  });
});

describe('DELETE /v1/admin/webhooks/{id}', () => {
  it('deletes the endpoint: 204, then 404', async () => {
    const webhook = await created();
    const del = () => t.app.request(`/v1/admin/webhooks/${webhook.id}`, { method: 'DELETE', headers: admin });
    expect((await del()).status).toBe(204);
    expect((await get(`/v1/admin/webhooks/${webhook.id}`)).status).toBe(404);
    expect((await del()).status).toBe(404);
  });
});
