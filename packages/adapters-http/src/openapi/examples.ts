/** Example values the document shows; they follow the wire rules (UUIDs, ISO timestamps, seconds). */
const ID = '0192f3c4-5b6a-7c8d-9e0f-1a2b3c4d5e6f';
const CREATED = '2026-11-21T10:00:00.000Z';
/** The account every example shows. */
const ADA = { name: 'Ada Lovelace', email: 'ada@example.com' };

export const userExample = {
  data: {
    type: 'users',
    id: ID,
    attributes: {
      ...ADA,
      metadata: { locale: 'en-GB' },
      app: { plan: 'pro' },
      active: 1,
      email_verified: CREATED,
      created: CREATED,
      updated: CREATED,
      last_login: '2026-11-21T10:05:12.345Z',
      recent_failed_logins: 0,
    },
  },
};

export const adminUserExample = {
  data: {
    ...userExample.data,
    attributes: {
      ...userExample.data.attributes,
      banned: true,
      banned_until: '2026-12-01T00:00:00.000Z',
      ban_reason: 'Spam reported by three users; a week to cool off.',
    },
  },
};

export const loginSessionsExample = {
  data: [
    {
      type: 'sessions',
      id: '0192f3c4-5b6a-7c8d-9e0f-1a2b3c4d5e70',
      attributes: {
        created: CREATED,
        last_used: '2026-11-21T10:14:00.000Z',
        expires: '2026-12-21T10:14:00.000Z',
        client_address: '203.0.113.7',
        user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
        impersonated_by: null,
      },
    },
  ],
  meta: { total: 1 },
};

export const overviewExample = {
  data: {
    type: 'stats',
    id: 'overview',
    attributes: {
      users: { total: 1000, active: 950, deactivated: 50 },
      days: [{ day: '2026-11-21', signups: 12, logins: 340, failed_logins: 9 }],
    },
  },
};

export const sessionExample = {
  data: {
    type: 'users',
    id: ID,
    attributes: {
      ...ADA,
      created: CREATED,
      access_token: 'eyJhbGciOiJFZERTQSIsImtpZCI6IjEifQ.eyJzdWIiOiIuLi4ifQ.c2lnbmF0dXJl',
      access_token_expiry: 1795255200,
      refresh_token: 'eyJhbGciOiJFZERTQSIsImtpZCI6IjEifQ.eyJqdGkiOiIuLi4ifQ.c2lnbmF0dXJl',
    },
  },
};

export const loginExample = {
  data: { type: 'users', attributes: { email: ADA.email, password: 'correct horse battery' } },
};

export const auditEventsExample = {
  data: [
    {
      type: 'audit-events',
      id: '0192f3c4-6c7d-7e8f-9a0b-1c2d3e4f5a6b',
      attributes: {
        time: CREATED,
        actor: { type: 'admin', id: '0192f3c4-0000-7000-8000-000000000001' },
        action: 'user.updated',
        target: { type: 'users', id: ID },
        changes: {
          name: { before: 'Ada', after: 'Ada Lovelace' },
          password: { before: 'changed', after: 'changed' },
        },
        request_id: '5f0c6b1e-2a3d-4e5f-8a9b-0c1d2e3f4a5b',
        client_address: '203.0.113.7',
        user_agent: 'Mozilla/5.0',
        hash: '9c1e5b0d3f2a4c6e8b0d1f3a5c7e9b1d3f5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e',
        previous_hash: '4a7f2c9e1b3d5f7a9c1e3b5d7f9a1c3e5b7d9f1a3c5e7b9d1f3a5c7e9b1d3f5a',
      },
    },
  ],
  links: {
    first: `/v1/admin/audit-events?page[number]=1&page[size]=20&filter[target]=${ID}`,
    last: `/v1/admin/audit-events?page[number]=1&page[size]=20&filter[target]=${ID}`,
    prev: null,
    next: null,
  },
  meta: { total: 1 },
};

const MAIL_ID = '0192f3c4-7a8b-7c9d-8e0f-1a2b3c4d5e6f';
const mailAttributes = {
  kind: 'test',
  recipient: ADA.email,
  subject: 'Test message from the user-account service',
  status: 'queued',
  attempts: 1,
  created: CREATED,
  next_attempt_at: '2026-11-21T10:00:05.000Z',
  last_error: 'ECONNECTION: connect ECONNREFUSED 127.0.0.1:587',
  delivered_at: null,
} as const;

export const mailMessagesExample = {
  data: [{ type: 'mail-messages', id: MAIL_ID, attributes: mailAttributes }],
  links: {
    first: '/v1/admin/mail?page[number]=1&page[size]=20',
    last: '/v1/admin/mail?page[number]=1&page[size]=20',
    prev: null,
    next: null,
  },
  meta: { total: 1 },
};

export const mailMessageExample = {
  data: {
    type: 'mail-messages',
    id: MAIL_ID,
    attributes: {
      ...mailAttributes,
      body: {
        text: `This is a test message to ${ADA.email}.\n\nIf you can read it, the service can send mail.\n`,
        html: `<p>This is a test message to <strong>${ADA.email}</strong>.</p>\n<p>If you can read it, the service can send mail.</p>\n`,
      },
    },
  },
};

export const invitationExample = {
  data: {
    type: 'invitations',
    id: '0192f3c4-5b6a-7c8d-9e0f-1a2b3c4d5e71',
    attributes: {
      ...ADA,
      user_id: ID,
      invited_by: '0192f3c4-5b6a-7c8d-9e0f-1a2b3c4d5e72',
      created: CREATED,
      sent: CREATED,
      expires: '2026-11-28T10:00:00.000Z',
    },
  },
};

export const adminExample = {
  data: {
    type: 'admins',
    id: '0192f3c4-5b6a-7c8d-9e0f-1a2b3c4d5e73',
    attributes: { ...ADA, role: 'support', created: CREATED, updated: CREATED },
  },
};

export const adminInvitationExample = {
  data: {
    type: 'admin-invitations',
    id: '0192f3c4-5b6a-7c8d-9e0f-1a2b3c4d5e74',
    attributes: {
      ...ADA,
      role: 'support',
      invited_by: '0192f3c4-5b6a-7c8d-9e0f-1a2b3c4d5e72',
      created: CREATED,
      expires: '2026-11-23T10:00:00.000Z',
    },
  },
};

export const webhookDeliveriesExample = {
  data: [
    {
      type: 'webhook-deliveries',
      id: 'msg_2f1c0a9e4b7d4c1e9a3b5d7f0c2e4a6b',
      attributes: {
        event_type: 'user.updated',
        sequence: 1234,
        status: 'succeeded',
        attempts: 1,
        next_attempt: null,
        last_status: 200,
        last_error: null,
        last_duration_ms: 42,
        created: '2026-11-21T10:05:12.345Z',
        delivered: '2026-11-21T10:05:12.401Z',
      },
    },
  ],
  links: {
    first: '/v1/admin/webhooks/0b9f6c1e-7a54-4c1d-9e2f-3a4b5c6d7e8f/deliveries?page[number]=1&page[size]=20',
    last: '/v1/admin/webhooks/0b9f6c1e-7a54-4c1d-9e2f-3a4b5c6d7e8f/deliveries?page[number]=1&page[size]=20',
    prev: null,
    next: null,
  },
  meta: { total: 1 },
};

export const webhookExample = {
  data: {
    type: 'webhooks',
    id: '0192f3c4-5b6a-7c8d-9e0f-1a2b3c4d5e80',
    attributes: {
      url: 'https://crm.example.com/hooks/uas',
      events: ['user.created', 'user.deleted'],
      enabled: true,
      description: 'CRM sync',
      disabled_reason: null,
      failing_since: null,
      created: CREATED,
      updated: CREATED,
    },
  },
};

export const revealedWebhookExample = {
  data: {
    ...webhookExample.data,
    attributes: { ...webhookExample.data.attributes, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3ZZU8Jv0jXA=' },
  },
};

export const identityProviderExample = {
  data: {
    type: 'identity_providers',
    id: '0192f3c4-5b6a-7c8d-9e0f-1a2b3c4d5e90',
    attributes: {
      slug: 'github',
      kind: 'github',
      issuer: null,
      client_id: 'Iv1.8a61f9b3a7aba766',
      client_secret_set: true,
      scopes: [],
      enabled: true,
      auto_link: false,
      callback_url: 'https://id.example.com/v1/oauth/github/callback',
      created: CREATED,
      updated: CREATED,
    },
  },
};

export const identitiesExample = {
  data: [
    {
      type: 'identities',
      id: '0192f3c4-5b6a-7c8d-9e0f-1a2b3c4d5e91',
      attributes: {
        provider: 'github',
        provider_kind: 'github',
        subject: '583231',
        email: 'ada@example.com',
        email_verified: true,
        created: CREATED,
        last_sign_in: CREATED,
      },
    },
  ],
  meta: { total: 1 },
};

export const oauthClientExample = {
  data: {
    type: 'oauth_clients',
    id: '0192f3c4-5b6a-7c8d-9e0f-1a2b3c4d5ea0',
    attributes: {
      name: 'Acme CRM',
      client_id: '0192f3c4-5b6a-7c8d-9e0f-1a2b3c4d5ea0',
      type: 'confidential',
      application_type: 'web',
      redirect_uris: ['https://crm.example.com/auth/callback'],
      post_logout_redirect_uris: ['https://crm.example.com/'],
      scopes: ['openid', 'email', 'profile'],
      first_party: false,
      created: CREATED,
      updated: CREATED,
    },
  },
};

export const revealedOAuthClientExample = {
  data: {
    ...oauthClientExample.data,
    attributes: { ...oauthClientExample.data.attributes, client_secret: 'q3J8v1nX0cT5yQe2LrW7aZk9HsB4mUoD6fGpVtEiNxY' },
  },
};

export const applicationGrantsExample = {
  data: [
    {
      type: 'application_grants',
      id: '0192f3c4-5b6a-7c8d-9e0f-1a2b3c4d5ea0',
      attributes: {
        client_id: '0192f3c4-5b6a-7c8d-9e0f-1a2b3c4d5ea0',
        client_name: 'Acme CRM',
        scopes: ['openid', 'email', 'profile'],
        created: CREATED,
      },
    },
  ],
  meta: { total: 1 },
};
