import { AUDIT_ACTIONS, type AuditAction, type AuditRecord } from '../audit/audit-event.ts';
import { describe, expect, it } from '../testing/test-api.ts';
import { userOfEvent, webhookEventTypeOf, webhookReceives, type WebhookEventType } from './webhook-events.ts';

const USER = { type: 'users', id: 'u1' };
const named = (kind: string) => ({ [kind]: { before: 'u1', after: 'u1' } });

/**
 * Every audit action, as the use cases record it (target and what names the user), and the event
 * it is sent as: null, deliberately, for each that changes no user.
 */
const CATALOGUE: Record<AuditAction, [Pick<AuditRecord, 'target' | 'changes'>, WebhookEventType | null]> = {
  'admin.login': [{ target: { type: 'admins', id: 'a1' }, changes: null }, null],
  'admin.login_failed': [{ target: null, changes: null }, null],
  'session.reuse_detected': [{ target: USER, changes: null }, null],
  'session.logout': [{ target: USER, changes: null }, null],
  'session.revoked': [{ target: USER, changes: null }, null],
  'user.created': [{ target: USER, changes: null }, 'user.created'],
  'user.signed_up': [{ target: USER, changes: null }, 'user.created'],
  'user.email_verified': [{ target: USER, changes: null }, 'user.email_verified'],
  'user.email_change_requested': [{ target: USER, changes: null }, null],
  'user.email_changed': [{ target: USER, changes: null }, 'user.updated'],
  'user.updated': [{ target: USER, changes: null }, 'user.updated'],
  'user.deactivated': [{ target: USER, changes: null }, 'user.deactivated'],
  'user.deleted': [{ target: USER, changes: null }, 'user.deleted'],
  'user.login_throttled': [{ target: USER, changes: null }, null],
  'user.recovery_requested': [{ target: USER, changes: null }, null],
  'user.recovery_sent': [{ target: USER, changes: null }, null],
  'user.recovery_completed': [{ target: USER, changes: null }, 'user.updated'],
  'user.verification_resent': [{ target: USER, changes: null }, null],
  'factor.activated': [{ target: { type: 'factors', id: 'f1' }, changes: named('user') }, 'factor.activated'],
  'factor.removed': [{ target: { type: 'factors', id: 'f1' }, changes: named('user') }, 'factor.removed'],
  'factors.reset': [{ target: USER, changes: null }, 'factors.reset'],
  'recovery_codes.regenerated': [{ target: USER, changes: null }, null],
  'recovery_code.used': [{ target: USER, changes: null }, null],
  'passkey.counter_regressed': [{ target: USER, changes: null }, null],
  'mfa.locked': [{ target: USER, changes: null }, null],
  'admin.invited': [{ target: { type: 'admins', id: 'a1' }, changes: null }, null],
  'admin.invitation_withdrawn': [{ target: { type: 'admins', id: 'a1' }, changes: null }, null],
  'admin.joined': [{ target: { type: 'admins', id: 'a1' }, changes: null }, null],
  'admin.role_changed': [{ target: { type: 'admins', id: 'a1' }, changes: null }, null],
  'admin.removed': [{ target: { type: 'admins', id: 'a1' }, changes: null }, null],
  'user.banned': [{ target: USER, changes: null }, 'user.banned'],
  'user.unbanned': [{ target: USER, changes: null }, 'user.unbanned'],
  'user.impersonated': [{ target: USER, changes: null }, null],
  'signing_key.rotated': [{ target: { type: 'signing-keys', id: 'k1' }, changes: null }, null],
  'secret.rotated': [{ target: null, changes: null }, null],
  // Expanded by the dispatcher into one event per user it names (see deliveriesOf).
  'users.imported': [{ target: null, changes: null }, 'user.created'],
  'users.exported': [{ target: null, changes: null }, null],
  'invitation.created': [{ target: { type: 'invitations', id: 'i1' }, changes: named('user') }, 'user.created'],
  'invitation.accepted': [{ target: { type: 'invitations', id: 'i1' }, changes: named('user') }, 'user.updated'],
  'invitation.revoked': [
    { target: { type: 'invitations', id: 'i1' }, changes: { user: { before: 'u1', after: null } } },
    'user.deleted',
  ],
  'invitation.resent': [{ target: { type: 'invitations', id: 'i1' }, changes: named('user') }, null],
  'mail.delivered': [{ target: { type: 'mail-messages', id: 'm1' }, changes: null }, null],
  'mail.failed': [{ target: { type: 'mail-messages', id: 'm1' }, changes: null }, null],
  'webhook.created': [{ target: { type: 'webhooks', id: 'w1' }, changes: null }, null],
  'webhook.updated': [{ target: { type: 'webhooks', id: 'w1' }, changes: null }, null],
  'webhook.deleted': [{ target: { type: 'webhooks', id: 'w1' }, changes: null }, null],
  'webhook.secret_rotated': [{ target: { type: 'webhooks', id: 'w1' }, changes: null }, null],
  'webhook.replayed': [{ target: { type: 'webhooks', id: 'w1' }, changes: null }, null],
  'identity_provider.created': [{ target: { type: 'identity_providers', id: 'p1' }, changes: null }, null],
  'identity_provider.updated': [{ target: { type: 'identity_providers', id: 'p1' }, changes: null }, null],
  'identity_provider.deleted': [{ target: { type: 'identity_providers', id: 'p1' }, changes: null }, null],
  'user.identity_linked': [{ target: USER, changes: null }, 'user.identity_linked'],
  'user.identity_unlinked': [{ target: USER, changes: null }, 'user.identity_unlinked'],
  'user.identity_signed_in': [{ target: USER, changes: null }, null],
  'oauth_client.created': [{ target: { type: 'oauth_clients', id: 'c1' }, changes: null }, null],
  'oauth_client.updated': [{ target: { type: 'oauth_clients', id: 'c1' }, changes: null }, null],
  'oauth_client.deleted': [{ target: { type: 'oauth_clients', id: 'c1' }, changes: null }, null],
  'oauth_client.secret_rotated': [{ target: { type: 'oauth_clients', id: 'c1' }, changes: null }, null],
  'oauth_grant.created': [{ target: USER, changes: null }, null],
  'oauth_grant.revoked': [{ target: USER, changes: null }, null],
  'oauth_token.refused': [{ target: { type: 'oauth_clients', id: 'c1' }, changes: null }, null],
};

describe('the webhook event catalogue', () => {
  it.each(AUDIT_ACTIONS.map((action) => [action, ...CATALOGUE[action]] as const))(
    'sends %s as its event, or deliberately none',
    (action, record, event) => {
      expect(webhookEventTypeOf({ action, ...record })).toBe(event);
    },
  );

  it('names the user of an event about an invitation or a factor, not the invitation or the factor', () => {
    expect(userOfEvent({ target: { type: 'factors', id: 'f1' }, changes: named('user') })).toBe('u1');
    expect(
      userOfEvent({ target: { type: 'invitations', id: 'i1' }, changes: { user: { before: 'u1', after: null } } }),
    ).toBe('u1');
    expect(userOfEvent({ target: USER, changes: null })).toBe('u1');
  });

  it('sends user.deleted for a revoked invitation only when its user went with it', () => {
    const target = { type: 'invitations', id: 'i1' };
    expect(webhookEventTypeOf({ action: 'invitation.revoked', target, changes: named('user') })).toBeNull();
  });

  it("sends nothing for an administrator's factor", () => {
    const target = { type: 'factors', id: 'f1' };
    expect(webhookEventTypeOf({ action: 'factor.activated', target, changes: named('admin') })).toBeNull();
    expect(webhookEventTypeOf({ action: 'factor.removed', target, changes: named('admin') })).toBeNull();
  });

  it('tells a reactivation from another update', () => {
    const reactivated = { active: { before: 0, after: 1 }, name: { before: 'A', after: 'B' } };
    expect(webhookEventTypeOf({ action: 'user.updated', target: USER, changes: reactivated })).toBe('user.reactivated');
    expect(
      webhookEventTypeOf({ action: 'user.updated', target: USER, changes: { name: { before: 'A', after: 'B' } } }),
    ).toBe('user.updated');
  });

  it('delivers to an endpoint what it subscribed to, or everything with "*"', () => {
    expect(webhookReceives(['user.created'], 'user.created')).toBe(true);
    expect(webhookReceives(['user.created'], 'user.deleted')).toBe(false);
    expect(webhookReceives(['*'], 'factor.removed')).toBe(true);
  });
});
