import { describe, expect, it } from '../testing/test-api.ts';
import { webhookEventTypeOf, webhookReceives } from './webhook-events.ts';

describe('the webhook event catalogue', () => {
  it('reads each event type from its audit actions, and nothing from the others', () => {
    expect(webhookEventTypeOf({ action: 'user.signed_up', changes: null })).toBe('user.created');
    expect(webhookEventTypeOf({ action: 'user.email_changed', changes: null })).toBe('user.updated');
    expect(webhookEventTypeOf({ action: 'user.deactivated', changes: null })).toBe('user.deactivated');
    expect(webhookEventTypeOf({ action: 'factors.reset', changes: null })).toBe('factors.reset');
    expect(webhookEventTypeOf({ action: 'admin.login', changes: null })).toBeNull();
    expect(webhookEventTypeOf({ action: 'webhook.created', changes: null })).toBeNull();
  });

  it('tells a reactivation from another update', () => {
    const reactivated = { active: { before: 0, after: 1 }, name: { before: 'A', after: 'B' } };
    expect(webhookEventTypeOf({ action: 'user.updated', changes: reactivated })).toBe('user.reactivated');
    expect(webhookEventTypeOf({ action: 'user.updated', changes: { name: { before: 'A', after: 'B' } } })).toBe(
      'user.updated',
    );
  });

  it('delivers to an endpoint what it subscribed to, or everything with "*"', () => {
    expect(webhookReceives(['user.created'], 'user.created')).toBe(true);
    expect(webhookReceives(['user.created'], 'user.deleted')).toBe(false);
    expect(webhookReceives(['*'], 'factor.removed')).toBe(true);
  });
});
