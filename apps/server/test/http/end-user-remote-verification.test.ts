import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminCredentials } from '@uas/domain';
import { bearer, jsonInit, loginDocument, usersDocument } from '@uas/adapters-http/testing';
import { createUser, loginAsAdmin, sessionOf } from '../support/admin-api';
import { ServerProcesses, type ServerProcess } from '../../../../scripts/release-process';
import { BACKENDS, testDatabaseEnv } from '../support/test-application';
import { resignedWithForeignKey } from '../support/token-forgery';

/** The defaults of JWT_ISSUER and JWT_AUDIENCE, which the example of docs/applications.md names. */
const ISSUER = 'user-account-service';
const AUDIENCE = 'app';
const PASSWORD = 'correct horse battery';

/**
 * An application of the team's, as docs/applications.md ("Verifying the tokens") shows it:
 * it knows the service only by its JWKS URL, its issuer and the audience it was given.
 */
function application(jwksUrl: URL) {
  const jwks = createRemoteJWKSet(jwksUrl);
  return async function currentUser(authorization: string | undefined) {
    const token = authorization?.replace(/^Bearer /, '') ?? '';
    const { payload } = await jwtVerify(token, jwks, {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['ES256', 'EdDSA', 'RS256'],
    });
    return { id: payload.sub, metadata: payload.metadata, app: payload.app };
  };
}

describe.each(BACKENDS)(
  'an application verifies user tokens through the JWKS URL of the running service (%s)',
  { timeout: 60_000 },
  (backend) => {
    const servers = new ServerProcesses();
    let removeDatabase = async () => {};
    let server: ServerProcess;
    let admin: AdminCredentials;
    let currentUser: ReturnType<typeof application>;

    beforeAll(async () => {
      const dir = await servers.tempDir();
      const database = await testDatabaseEnv(backend, dir);
      removeDatabase = database.remove;
      const keyPath = join(dir, 'admin.key');
      server = await servers.start({ ...database.env, ADMIN_KEY_PATH: keyPath });
      admin = JSON.parse(await readFile(keyPath, 'utf8')) as AdminCredentials;
      currentUser = application(new URL(`http://127.0.0.1:${server.port}/.well-known/jwks.json`));
    });
    afterAll(async () => {
      await servers.cleanup();
      await removeDatabase();
    });

    const userLogin = async (email: string) =>
      sessionOf(await server.fetch('/v1/login', jsonInit('POST', loginDocument(email, PASSWORD))));
    /** The admin creates a user (201 required); its id. */
    const newUser = async (attributes: Record<string, unknown>): Promise<string> => {
      const response = await createUser(server, (await loginAsAdmin(server, admin)).accessToken, {
        password: PASSWORD,
        ...attributes,
      });
      expect(response.status).toBe(201);
      return (await response.json()).data.id;
    };
    const patchMe = (accessToken: string, attributes: Record<string, unknown>) =>
      server.fetch('/v1/users/me', jsonInit('PATCH', usersDocument(attributes), bearer(accessToken)));

    it('reads metadata and app from a verified token; after the user changes metadata (but cannot touch app) the next token carries it', async () => {
      const id = await newUser({
        email: 'ada@example.com',
        metadata: { theme: 'dark' },
        app: { plan: 'pro', roles: ['editor'] },
      });

      const first = await userLogin('ada@example.com');
      expect(await currentUser(`Bearer ${first.accessToken}`)).toEqual({
        id,
        metadata: { theme: 'dark' },
        app: { plan: 'pro', roles: ['editor'] },
      });

      expect((await patchMe(first.accessToken, { metadata: { theme: 'light' } })).status).toBe(200);
      expect((await patchMe(first.accessToken, { app: { plan: 'enterprise', roles: ['admin'] } })).status).toBe(403);

      const next = await sessionOf(
        await server.fetch('/v1/refresh', jsonInit('POST', { refreshToken: first.refreshToken })),
      );
      expect(await currentUser(`Bearer ${next.accessToken}`)).toEqual({
        id,
        metadata: { theme: 'light' },
        app: { plan: 'pro', roles: ['editor'] },
      });
    });

    it("the same check refuses an admin token and a refresh token (their audience is not the application's)", async () => {
      await newUser({ email: 'bo@example.com' });
      const user = await userLogin('bo@example.com');
      const adminSession = await loginAsAdmin(server, admin);

      for (const token of [adminSession.accessToken, adminSession.refreshToken, user.refreshToken]) {
        await expect(currentUser(`Bearer ${token}`)).rejects.toMatchObject({
          code: 'ERR_JWT_CLAIM_VALIDATION_FAILED',
          claim: 'aud',
        });
      }
    });

    it("the same check refuses a user token signed by any other key under the service's kid", async () => {
      await newUser({ email: 'cy@example.com' });
      const user = await userLogin('cy@example.com');
      await expect(currentUser(`Bearer ${await resignedWithForeignKey(user.accessToken)}`)).rejects.toMatchObject({
        code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
      });
    });
  },
);
