import { describe, expect, it } from './test-api.ts';
import { SYSTEM, type AuditAction } from '../audit/audit-event.ts';
import { auditRecord } from '../audit/audit-records.ts';
import type { Repositories } from '../repositories.ts';
import { ValidationError } from '../shared/errors.ts';
import type { NewWebhook, Webhook } from '../webhooks/webhook.ts';
import { useFreshRepositories, type OpenRepositories } from './contract-harness.ts';

const T0 = new Date('2027-06-01T10:00:00.000Z');
const later = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

let made = 0;
const nextId = (prefix: string) => {
  made += 1;
  return `${prefix}-0000-4000-8000-${made.toString(16).padStart(12, '0')}`;
};

export function sampleWebhook(overrides: Partial<NewWebhook> = {}): NewWebhook {
  return {
    id: nextId('26000000'),
    url: `https://receiver.example.com/hooks/${made}`,
    events: ['user.created', 'user.deleted'],
    enabled: true,
    description: '',
    secret: { keyId: 'key-1', ciphertext: `sealed-${made}` },
    previousSecret: null,
    previousSecretUntil: null,
    failingSince: null,
    disabledReason: null,
    created: T0,
    updated: T0,
    ...overrides,
  };
}

const event = (action: AuditAction, id: string) =>
  auditRecord(nextId('26100000'), T0, SYSTEM, action, { type: 'webhooks', id });

/** The behaviour every WebhookRepository promises. */
export function describeWebhookRepositoryContract(backend: string, open: OpenRepositories): void {
  describe(`WebhookRepository contract (${backend})`, () => {
    let repositories: Repositories;
    let another: Repositories;
    useFreshRepositories(open, (opened, second) => {
      repositories = opened;
      another = second;
    });

    /** The events recorded, newest first. */
    const actions = async () => (await repositories.audit.list({ page: 1, size: 100 })).events.map((e) => e.action);
    const create = (webhook: NewWebhook) => repositories.webhooks.create(webhook, event('webhook.created', webhook.id));

    it('stores an endpoint with its event, as given, its cursor at the head of the chain', async () => {
      await repositories.audit.append(event('secret.rotated', 'before-1'));
      const { seq } = await repositories.audit.append(event('secret.rotated', 'before-2'));
      const webhook = sampleWebhook({
        events: ['*'],
        enabled: false,
        description: 'CRM sync',
        previousSecret: { keyId: 'key-0', ciphertext: 'older' },
        previousSecretUntil: later(60),
        failingSince: later(1),
        disabledReason: 'failing',
      });
      const created = await create(webhook);
      const expected: Webhook = { ...webhook, cursor: seq };
      expect(created).toEqual(expected);
      expect(await repositories.webhooks.get(webhook.id)).toEqual(expected);
      expect(await another.webhooks.get(webhook.id)).toEqual(expected);
      expect(await actions()).toEqual(['webhook.created', 'secret.rotated', 'secret.rotated']);
    });

    it('starts a first endpoint at cursor 0 when the chain is empty', async () => {
      expect((await create(sampleWebhook())).cursor).toBe(0);
    });

    it('lists every endpoint, oldest first, then by id', async () => {
      const second = sampleWebhook({ created: later(2) });
      const first = sampleWebhook({ created: later(1) });
      const third = sampleWebhook({ created: later(2), id: '26000000-0000-4000-8000-ffffffffffff' });
      for (const webhook of [second, third, first]) await create(webhook);
      expect((await repositories.webhooks.list()).map((webhook) => webhook.id)).toEqual([
        first.id,
        second.id,
        third.id,
      ]);
    });

    it('answers null for an unknown endpoint, and records nothing', async () => {
      const unknown = sampleWebhook().id;
      expect(await repositories.webhooks.get(unknown)).toBeNull();
      expect(await repositories.webhooks.get('not-a-uuid')).toBeNull();
      const change = (current: Webhook) => ({ webhook: current, audit: event('webhook.updated', unknown) });
      expect(await repositories.webhooks.update(unknown, change)).toBeNull();
      expect(await repositories.webhooks.delete(unknown, () => event('webhook.deleted', unknown))).toBeNull();
      const rotation = { secret: { keyId: 'key-1', ciphertext: 'new' }, previousUntil: later(60), now: T0 };
      expect(
        await repositories.webhooks.rotateSecret(unknown, rotation, event('webhook.secret_rotated', unknown)),
      ).toBeNull();
      expect(await actions()).toEqual([]);
    });

    it('updates what an admin changes and the state with it, with its event, leaving the secrets and the cursor', async () => {
      const webhook = await create(sampleWebhook({ failingSince: later(1), disabledReason: 'gone', enabled: false }));
      const updated = await repositories.webhooks.update(webhook.id, (current) => ({
        webhook: {
          ...current,
          url: 'https://other.example.com/in',
          events: ['user.updated'],
          enabled: true,
          description: 'billing',
          failingSince: null,
          disabledReason: null,
          updated: later(5),
          secret: { keyId: 'key-9', ciphertext: 'not written' },
          cursor: 999,
        },
        audit: event('webhook.updated', current.id),
      }));
      const expected: Webhook = {
        ...webhook,
        url: 'https://other.example.com/in',
        events: ['user.updated'],
        enabled: true,
        description: 'billing',
        failingSince: null,
        disabledReason: null,
        updated: later(5),
      };
      expect(updated).toEqual(expected);
      expect(await another.webhooks.get(webhook.id)).toEqual(expected);
      expect(await actions()).toEqual(['webhook.updated', 'webhook.created']);
    });

    it('writes nothing, the event included, when the change throws', async () => {
      const webhook = await create(sampleWebhook());
      await expect(
        repositories.webhooks.update(webhook.id, () => {
          throw new ValidationError([{ source: { pointer: '/data/attributes/url' }, detail: 'refused' }]);
        }),
      ).rejects.toBeInstanceOf(ValidationError);
      expect(await repositories.webhooks.get(webhook.id)).toEqual(webhook);
      expect(await actions()).toEqual(['webhook.created']);
    });

    it('runs concurrent changes on two instances one after the other: none is lost', async () => {
      const webhook = await create(sampleWebhook({ description: '' }));
      const rounds = 20;
      await Promise.all(
        Array.from({ length: rounds }, (_, round) =>
          (round % 2 === 0 ? repositories : another).webhooks.update(webhook.id, (current) => ({
            webhook: { ...current, description: `${current.description}x` },
            audit: event('webhook.updated', current.id),
          })),
        ),
      );
      expect((await repositories.webhooks.get(webhook.id))?.description).toBe('x'.repeat(rounds));
      expect((await actions()).filter((action) => action === 'webhook.updated')).toHaveLength(rounds);
    });

    it('deletes an endpoint with the event its removed state makes', async () => {
      const webhook = await create(sampleWebhook());
      const kept = await create(sampleWebhook());
      const removed = await repositories.webhooks.delete(webhook.id, (gone) => event('webhook.deleted', gone.id));
      expect(removed).toEqual(webhook);
      expect(await another.webhooks.get(webhook.id)).toBeNull();
      expect(await repositories.webhooks.list()).toEqual([kept]);
      expect(await repositories.webhooks.delete(webhook.id, (gone) => event('webhook.deleted', gone.id))).toBeNull();
      expect(await actions()).toEqual(['webhook.deleted', 'webhook.created', 'webhook.created']);
    });

    it('rotates the secret: the replaced one becomes the previous one until the given time', async () => {
      const webhook = await create(sampleWebhook({ previousSecret: { keyId: 'key-0', ciphertext: 'oldest' } }));
      const secret = { keyId: 'key-2', ciphertext: 'newer' };
      const rotated = await repositories.webhooks.rotateSecret(
        webhook.id,
        { secret, previousUntil: later(86_400), now: later(10) },
        event('webhook.secret_rotated', webhook.id),
      );
      const expected: Webhook = {
        ...webhook,
        secret,
        previousSecret: webhook.secret,
        previousSecretUntil: later(86_400),
        updated: later(10),
      };
      expect(rotated).toEqual(expected);
      expect(await another.webhooks.get(webhook.id)).toEqual(expected);
      expect(await actions()).toEqual(['webhook.secret_rotated', 'webhook.created']);
    });

    it('chains concurrent rotations on two instances: each replaces the one before it', async () => {
      const webhook = await create(sampleWebhook());
      const rounds = 20;
      const secrets = Array.from({ length: rounds }, (_, round) => ({
        keyId: 'key-1',
        ciphertext: `rotated-${round}`,
      }));
      await Promise.all(
        secrets.map((secret, round) =>
          (round % 2 === 0 ? repositories : another).webhooks.rotateSecret(
            webhook.id,
            { secret, previousUntil: later(86_400), now: later(round) },
            event('webhook.secret_rotated', webhook.id),
          ),
        ),
      );
      const final = await repositories.webhooks.get(webhook.id);
      const ciphertexts = secrets.map((secret) => secret.ciphertext);
      expect(ciphertexts).toContain(final?.secret.ciphertext);
      expect(ciphertexts).toContain(final?.previousSecret?.ciphertext);
      expect(final?.previousSecret).not.toEqual(final?.secret);
      expect((await actions()).filter((action) => action === 'webhook.secret_rotated')).toHaveLength(rounds);
    });
  });
}
