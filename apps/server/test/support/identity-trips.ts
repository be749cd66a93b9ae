import { expect } from 'vitest';
import type { AdminClient } from './admin-client';
import { APP_ORIGIN, OAuthBrowser, pkcePair } from './oauth-browser';
import type { TestApplication } from './test-application';

const PROVIDERS_PATH = '/v1/admin/identity-providers';

/** Creates a provider as an admin does, through the API; fails the test unless 201. */
export async function createProvider(client: AdminClient, attributes: Record<string, unknown>): Promise<string> {
  const response = await client.send(
    'POST',
    PROVIDERS_PATH,
    { data: { type: 'identity_providers', attributes } },
    await client.adminToken(),
  );
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

/** What a browser brought back to the app from a sign-in: the code or the error, and its verifier. */
export interface Trip {
  verifier: string;
  code: string | null;
  error: string | null;
  /** Where the trip ended (null when the service itself answered, with `last`). */
  landed: URL | null;
  last: Response;
  browser: OAuthBrowser;
}

/** An app's "continue with `slug`" walked by `browser` (a new one on `service` unless given) to the app's page. */
export async function signInWith(
  service: TestApplication,
  slug: string,
  { browser = new OAuthBrowser(service), redirectTo = `${APP_ORIGIN}/signed-in` } = {},
): Promise<Trip> {
  const { verifier, challenge } = pkcePair();
  const query = new URLSearchParams({ redirect_to: redirectTo, code_challenge: challenge });
  const { url, last } = await browser.navigate(`/v1/oauth/${slug}/authorize?${query}`);
  return {
    verifier,
    code: url?.searchParams.get('code') ?? null,
    error: url?.searchParams.get('error') ?? null,
    landed: url,
    last,
    browser,
  };
}

/** The app redeems the code with its verifier at POST /v1/oauth/token. */
export const redeem = (client: AdminClient, code: string | null, verifier: string) =>
  client.send('POST', '/v1/oauth/token', { code: code ?? '', code_verifier: verifier });

/** The error code of a JSON:API error answer, or null for a success. */
export const errorCodeOf = async (response: Response) =>
  response.status >= 400 ? ((await response.clone().json()) as { errors: { code: string }[] }).errors[0]!.code : null;

/** The access token of a session answer (fails the test unless it is one). */
export async function accessTokenOf(response: Response): Promise<string> {
  expect(response.status, await response.clone().text()).toBe(200);
  const body = (await response.clone().json()) as { data: { type: string; attributes: { access_token?: string } } };
  expect(body.data.attributes.access_token, JSON.stringify(body.data.type)).toBeTypeOf('string');
  return body.data.attributes.access_token!;
}

/** The signed-in user as /v1/users/me answers it. */
export async function me(client: AdminClient, accessToken: string) {
  const response = await client.get('/v1/users/me', accessToken);
  expect(response.status).toBe(200);
  return (
    (await response.json()) as {
      data: { id: string; attributes: { email: string; name: string; email_verified: string | null } };
    }
  ).data;
}
