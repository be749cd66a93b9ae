import { describe, expect, it } from 'vitest';
import type { UserAttributes } from '@uas/client';
import { changedAttributes, createAttributes, type UserFormValues } from '../../src/state/user-changes';

const original: UserAttributes = {
  name: 'Ann',
  email: 'ann@example.com',
  metadata: { plan: 'pro', tags: ['a'] },
  app: { role: 'x' },
  active: 1,
  email_verified: '2026-01-01T00:00:00.000Z',
  created: '2026-01-01T00:00:00.000Z',
  updated: '2026-01-01T00:00:00.000Z',
  last_login: null,
  recent_failed_logins: 0,
};
const unchanged: UserFormValues = {
  name: 'Ann',
  email: 'ann@example.com',
  password: '',
  active: 1,
  email_verified: true,
  metadata: { tags: ['a'], plan: 'pro' },
  app: { role: 'x' },
};

describe('changedAttributes', () => {
  it('sends nothing when nothing changed, whatever the key order of the JSON', () => {
    expect(changedAttributes(original, unchanged)).toEqual({});
  });

  it('sends only the attributes that changed', () => {
    expect(changedAttributes(original, { ...unchanged, metadata: { plan: 'free' } })).toEqual({
      metadata: { plan: 'free' },
    });
    expect(changedAttributes(original, { ...unchanged, active: 0, name: 'Anne' })).toEqual({ active: 0, name: 'Anne' });
    expect(changedAttributes(original, { ...unchanged, email_verified: false })).toEqual({ email_verified: false });
    const unverified = { ...original, email_verified: null };
    expect(changedAttributes(unverified, { ...unchanged, email_verified: true })).toEqual({ email_verified: true });
  });

  it('treats a blank password as no change and a typed one as a change', () => {
    expect(changedAttributes(original, { ...unchanged, password: 'new secret' })).toEqual({ password: 'new secret' });
  });

  it('notices a nested change inside metadata or app', () => {
    expect(changedAttributes(original, { ...unchanged, metadata: { plan: 'pro', tags: ['b'] } })).toEqual({
      metadata: { plan: 'pro', tags: ['b'] },
    });
    expect(changedAttributes(original, { ...unchanged, app: {} })).toEqual({ app: {} });
  });
});

describe('createAttributes', () => {
  it('sends every field, leaving a blank password out for the API to reject', () => {
    expect(createAttributes(unchanged)).not.toHaveProperty('password');
    expect(createAttributes({ ...unchanged, password: 'long enough' })).toEqual({
      ...unchanged,
      password: 'long enough',
    });
  });
});
