/** Example values the document shows; they follow the wire rules (UUIDs, ISO timestamps, seconds). */
const ID = '0192f3c4-5b6a-7c8d-9e0f-1a2b3c4d5e6f';
const CREATED = '2026-11-21T10:00:00.000Z';

export const userExample = {
  data: {
    type: 'users',
    id: ID,
    attributes: {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      metadata: { locale: 'en-GB' },
      app: { plan: 'pro' },
      active: 1,
      created: CREATED,
      updated: CREATED,
      last_login: '2026-11-21T10:05:12.345Z',
      recent_failed_logins: 0,
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
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      created: CREATED,
      access_token: 'eyJhbGciOiJFZERTQSIsImtpZCI6IjEifQ.eyJzdWIiOiIuLi4ifQ.c2lnbmF0dXJl',
      access_token_expiry: 1795255200,
      refresh_token: 'eyJhbGciOiJFZERTQSIsImtpZCI6IjEifQ.eyJqdGkiOiIuLi4ifQ.c2lnbmF0dXJl',
    },
  },
};

export const loginExample = {
  data: { type: 'users', attributes: { email: 'ada@example.com', password: 'correct horse battery' } },
};
