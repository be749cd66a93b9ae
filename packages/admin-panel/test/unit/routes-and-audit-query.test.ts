import { describe, expect, it } from 'vitest';
import {
  auditApiPathOf,
  auditLocationSearchOf,
  auditQueryFromApiLink,
  auditQueryFromLocation,
} from '../../src/state/audit-query';
import { paths, routeOf } from '../../src/state/routes';

const ID = '0192f3c4-5b6a-7c8d-9e0f-1a2b3c4d5e6f';

describe('routeOf', () => {
  it('knows the overview, the users list, a user, the audit log, the mail outbox, the admins, the webhooks and one endpoint, the sign-in providers, the security page and the login page, with or without a slash', () => {
    expect(routeOf('/admin/')).toEqual({ screen: 'overview' });
    expect(routeOf('/admin')).toEqual({ screen: 'overview' });
    expect(routeOf('/admin/users')).toEqual({ screen: 'users' });
    expect(routeOf('/admin/users/')).toEqual({ screen: 'users' });
    expect(routeOf(paths.user(ID))).toEqual({ screen: 'user', id: ID });
    expect(routeOf('/admin/audit')).toEqual({ screen: 'audit' });
    expect(routeOf('/admin/mail/')).toEqual({ screen: 'mail' });
    expect(routeOf('/admin/admins/')).toEqual({ screen: 'admins' });
    expect(routeOf('/admin/webhooks/')).toEqual({ screen: 'webhooks' });
    expect(routeOf(paths.webhook(ID))).toEqual({ screen: 'webhook', id: ID });
    expect(routeOf('/admin/sign-in-providers/')).toEqual({ screen: 'identity-providers' });
    expect(routeOf('/admin/applications/')).toEqual({ screen: 'oauth-clients' });
    expect(routeOf('/admin/login')).toEqual({ screen: 'login' });
    expect(routeOf('/admin/security/')).toEqual({ screen: 'security' });
    expect(routeOf('/admin/some/deep/link')).toEqual({ screen: 'overview' });
  });
});

describe('audit query', () => {
  const query = {
    target: ID,
    actor: '',
    action: 'session.revoked',
    since: '2026-11-01T00:00:00.000Z',
    until: '',
    page: 2,
  };

  it('round-trips through the panel URL, leaving defaults out', () => {
    expect(auditLocationSearchOf(query)).toBe(
      `?target=${ID}&action=session.revoked&since=2026-11-01T00%3A00%3A00.000Z&page=2`,
    );
    expect(auditQueryFromLocation(auditLocationSearchOf(query))).toEqual(query);
    expect(auditLocationSearchOf(auditQueryFromLocation('?page=0&page=x'))).toBe('');
  });

  it('builds the API path with the filter[…] names, and reads the API links back', () => {
    const path = auditApiPathOf(query);
    expect(path).toBe(
      `/v1/admin/audit-events?page[number]=2&page[size]=20&filter[target]=${ID}&filter[action]=session.revoked&filter[since]=2026-11-01T00%3A00%3A00.000Z`,
    );
    expect(auditQueryFromApiLink(path)).toEqual(query);
    expect(auditQueryFromApiLink('https://elsewhere.example/v1/admin/audit-events?page[number]=1')).toBeNull();
    expect(auditQueryFromApiLink(null)).toBeNull();
  });
});
