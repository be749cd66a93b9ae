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
