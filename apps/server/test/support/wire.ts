import { expect } from 'vitest';
import { REFRESH_COOKIE } from '@uas/adapters-http';
import type { TestApplication } from './test-application';

// What the API's wire looks like to the scenarios: fixed values, record shapes, request bodies.

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[47][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** ISO 8601 UTC with milliseconds and `Z`, as the contract writes every timestamp. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** What every bcrypt hash starts with: it may appear in no response and no log line. */
export const BCRYPT_PREFIX = '$2';
export const USER_PASSWORD = 'user-password-1';
export const UNKNOWN_ID = '0b8e6c1e-5d3a-4f0e-9a51-8d6f1c2b3a4e';
/** The origin `app.request()` serves relative paths from, as a browser would write it. */
export const SAME_ORIGIN = 'http://localhost';
export const BEARER_CHALLENGE = 'Bearer';
export const INVALID_TOKEN_CHALLENGE = 'Bearer error="invalid_token"';
/** The default ACCESS_TOKEN_TTL_SECONDS, and the leeway the service allows for clock skew. */
export const ACCESS_TOKEN_TTL_SECONDS = 900;
export const CLOCK_TOLERANCE_SECONDS = 5;
/** The default REFRESH_REUSE_GRACE_SECONDS: how long a retired refresh token may come back without counting as reuse. */
export const REFRESH_REUSE_GRACE_SECONDS = 10;

/** The admin session record (spec 2.2) that login and refresh return at this moment of `t`'s clock. */
export function adminSessionRecord(t: TestApplication, id: unknown = expect.stringMatching(UUID)) {
  return {
    data: {
      type: 'users',
      id,
      attributes: {
        name: 'Administrator',
        email: t.admin.email,
        created: expect.stringMatching(ISO_MS),
        access_token: expect.any(String),
        access_token_expiry: Math.floor(t.clock.now().getTime() / 1000) + ACCESS_TOKEN_TTL_SECONDS,
        refresh_token: expect.any(String),
      },
    },
  };
}

export const refreshBody = (refreshToken: string) => ({ refreshToken });
export const refreshCookie = (token: string) => ({ Cookie: `${REFRESH_COOKIE}=${encodeURIComponent(token)}` });
export const rawBody = (method: string, body: string, contentType?: string): RequestInit => ({
  method,
  headers: contentType === undefined ? {} : { 'Content-Type': contentType },
  body,
});
