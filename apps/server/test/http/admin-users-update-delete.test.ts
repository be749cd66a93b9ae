import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/test-application';
import { UNKNOWN_ID, USER_PASSWORD } from '../support/wire';
import { attribute, errorsLike, expectInvalidAttributes } from '../support/error-expectations';
import { scenarioApplication } from '../support/scenario';
import { usersDocument } from '@uas/adapters-http/testing';

const USERS = '/v1/admin/users';
const USER_REFRESH = '/v1/refresh';
const NEW_PASSWORD = 'a-brand-new-password';

let sequence = 0;
const uniqueEmail = (label: string) => `${label}-${(sequence += 1)}@example.com`;

describe.each(BACKENDS)('PATCH and DELETE /v1/admin/users/{uuid} on %s', (backend) => {
  const s = scenarioApplication(backend);
  const patch = async (id: string, attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    s.client.send('PATCH', `${USERS}/${id}`, usersDocument(attributes, extra), await s.client.adminToken());
  const read = async (id: string) => s.client.get(`${USERS}/${id}`, await s.client.adminToken());
  const remove = async (id: string) => s.client.delete(`${USERS}/${id}`, await s.client.adminToken());
  const fullUser = () =>
    s.client.createUser({
      email: uniqueEmail('full'),
      name: 'Before',
      metadata: { a: 1, keep: true },
      app: { plan: 'free', seats: 1 },
      active: 1,
    });

  describe('PATCH', () => {
    it('keeps every attribute that is absent, changes `updated` and never `created`', async () => {
      const user = await fullUser();
      s.t.clock.advance(5);
      const response = await patch(user.id, { name: 'After' });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        data: { ...user, attributes: { ...user.attributes, name: 'After', updated: s.t.clock.now().toISOString() } },
      });
      expect(await (await read(user.id)).json()).toEqual({
        data: { ...user, attributes: { ...user.attributes, name: 'After', updated: s.t.clock.now().toISOString() } },
      });
    });

    it.each([
      ['metadata', { b: 2 }],
      ['app', { plan: 'pro' }],
      ['metadata', {}],
    ])('replaces %s as a whole object with %j, never merging', async (name, value) => {
      const user = await fullUser();
      const response = await patch(user.id, { [name]: value });
      expect(response.status).toBe(200);
      const { attributes } = (await response.json()).data;
      expect(attributes[name]).toEqual(value);
      expect(attributes[name === 'app' ? 'metadata' : 'app']).toEqual(
        user.attributes[name === 'app' ? 'metadata' : 'app'],
      );
    });

    it('trims and lower-cases a new email', async () => {
      const user = await fullUser();
      const response = await patch(user.id, { email: '  New.Address@Example.COM ' });
      expect(response.status).toBe(200);
      expect((await response.json()).data.attributes.email).toBe('new.address@example.com');
    });

    it("accepts the user's own email in another case: no clash with itself", async () => {
      const user = await fullUser();
      const response = await patch(user.id, { email: user.attributes.email.toUpperCase() });
      expect(response.status).toBe(200);
      expect((await response.json()).data.attributes.email).toBe(user.attributes.email);
    });

    it('answers an email taken by another user, in another case, with 409 and changes nothing', async () => {
      const other = await s.client.createUser({ email: uniqueEmail('other') });
      const user = await fullUser();
      const response = await patch(user.id, { email: other.attributes.email.toUpperCase() });
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual(errorsLike([409, 'email_taken', attribute('email')]));
      expect((await (await read(user.id)).json()).data).toEqual(user);
    });

    it('of two users PATCHed to one email at once, exactly one gets it (200) and the other 409', async () => {
      const users = [await fullUser(), await fullUser()];
      const email = uniqueEmail('contested');
      const responses = await Promise.all(users.map((user) => patch(user.id, { email })));
      expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
      const listed = await s.client.get(`${USERS}?search[email]=${email}`, await s.client.adminToken());
      expect((await listed.json()).meta.total).toBe(1);
    });

    it('accepts data.id equal to the path id', async () => {
      const user = await fullUser();
      expect((await patch(user.id, { name: 'Same id' }, { id: user.id })).status).toBe(200);
    });

    it.each([
      ['data.id other than the path id', usersDocument({ name: 'X' }, { id: UNKNOWN_ID }), '/data/id'],
      ['data.type other than users', { data: { type: 'admins', attributes: { name: 'X' } } }, '/data/type'],
    ])('answers %s with 409 and changes nothing', async (_, body, pointer) => {
      const user = await fullUser();
      const response = await s.client.send('PATCH', `${USERS}/${user.id}`, body, await s.client.adminToken());
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual(errorsLike([409, 'resource_conflict', { pointer }]));
      expect((await (await read(user.id)).json()).data).toEqual(user);
    });

    it.each([
      ['name null', { name: null }, ['name']],
      ['email null', { email: null }, ['email']],
      ['password null', { password: null }, ['password']],
      ['metadata null', { metadata: null }, ['metadata']],
      ['app null', { app: null }, ['app']],
      ['active null', { active: null }, ['active']],
      ['active 2', { active: 2 }, ['active']],
      ['a password of 73 bytes', { password: 'p'.repeat(73) }, ['password']],
      ['metadata as an array', { metadata: [] }, ['metadata']],
      ['an unknown attribute', { created: '2020-01-01T00:00:00.000Z' }, ['created']],
      ['a valid name beside active 2 and email null', { name: 'Changed', active: 2, email: null }, ['email', 'active']],
    ])('refuses %s with 422, one error per problem, and changes nothing', async (_, attributes, pointers) => {
      const user = await fullUser();
      const response = await patch(user.id, attributes);
      await expectInvalidAttributes(response, pointers);
      expect((await (await read(user.id)).json()).data).toEqual(user);
    });

    it.each([
      ['an unknown uuid', UNKNOWN_ID],
      ['a malformed id', 'not-a-uuid'],
    ])('answers %s with 404', async (_, id) => {
      const response = await patch(id, { name: 'Nobody' });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual(errorsLike([404, 'not_found']));
    });
  });

  describe("PATCH and the user's sessions", () => {
    async function loggedInUser() {
      const user = await s.client.createUser({ email: uniqueEmail('session') });
      return { user, session: await s.client.userSession(user.attributes.email) };
    }

    it('a new password ends the refresh tokens; the user logs in with the new password only', async () => {
      const { user, session } = await loggedInUser();
      expect((await patch(user.id, { password: NEW_PASSWORD })).status).toBe(200);
      expect((await s.client.refresh(session.refreshToken, USER_REFRESH)).status).toBe(401);
      expect((await s.client.login(user.attributes.email, USER_PASSWORD, {}, '/v1/login')).status).toBe(401);
      expect((await s.client.login(user.attributes.email, NEW_PASSWORD, {}, '/v1/login')).status).toBe(200);
    });

    it('active: 0 ends the refresh tokens, and the right password then gets 403 at login', async () => {
      const { user, session } = await loggedInUser();
      expect((await patch(user.id, { active: 0 })).status).toBe(200);
      expect((await s.client.refresh(session.refreshToken, USER_REFRESH)).status).toBe(401);
      const login = await s.client.login(user.attributes.email, USER_PASSWORD, {}, '/v1/login');
      expect(login.status).toBe(403);
      expect(await login.json()).toEqual(errorsLike([403, 'account_inactive']));
    });

    it('a change of name, metadata or app leaves the refresh tokens working', async () => {
      const { user, session } = await loggedInUser();
      expect((await patch(user.id, { name: 'Renamed', metadata: { x: 1 }, app: { y: 2 } })).status).toBe(200);
      expect((await s.client.refresh(session.refreshToken, USER_REFRESH)).status).toBe(200);
    });
  });

  describe('DELETE', () => {
    it('answers 204 with no body; the user is gone (404), and a second delete is 404', async () => {
      const user = await fullUser();
      const response = await remove(user.id);
      expect(response.status).toBe(204);
      expect((await read(user.id)).status).toBe(404);
      const again = await remove(user.id);
      expect(again.status).toBe(404);
      expect(await again.json()).toEqual(errorsLike([404, 'not_found']));
    });

    it("ends the user's tokens", async () => {
      const user = await s.client.createUser({ email: uniqueEmail('deleted') });
      const session = await s.client.userSession(user.attributes.email);
      expect((await remove(user.id)).status).toBe(204);
      expect((await s.client.refresh(session.refreshToken, USER_REFRESH)).status).toBe(401);
      expect((await s.client.get('/v1/users/me', session.accessToken)).status).toBe(401);
    });

    it('frees the email for a new user', async () => {
      const user = await fullUser();
      await remove(user.id);
      const again = await s.client.createUser({ email: user.attributes.email });
      expect(again.id).not.toBe(user.id);
    });

    it.each([
      ['an unknown uuid', UNKNOWN_ID],
      ['a malformed id', 'not-a-uuid'],
    ])('answers %s with 404 not_found', async (_, id) => {
      const response = await remove(id);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual(errorsLike([404, 'not_found']));
    });
  });
});
