import { describe, expect, it } from 'vitest';
import type { UserDocument } from '@uas/client';
import { BACKENDS } from '../support/test-application';
import { UNKNOWN_ID } from '../support/wire';
import { scenarioApplication } from '../support/scenario';
import { usersDocument } from '@uas/adapters-http/testing';
import { expectError } from '../support/error-expectations';

const USERS = '/v1/admin/users';
const STALE_DETAIL = 'The user has changed since you read it; read it again, then reapply your change.';
const ROUNDS = 20;

let sequence = 0;
const uniqueEmail = () => `etag-${(sequence += 1)}-${crypto.randomUUID()}@example.com`;

describe.each(BACKENDS)('ETag and If-Match on users, on %s', (backend) => {
  const s = scenarioApplication(backend);
  const token = () => s.client.adminToken();
  const read = async (id: string) => s.client.get(`${USERS}/${id}`, await token());
  const patch = async (id: string, attributes: Record<string, unknown>, ifMatch?: string) =>
    s.client.send(
      'PATCH',
      `${USERS}/${id}`,
      usersDocument(attributes, { id }),
      await token(),
      ifMatch === undefined ? {} : { 'If-Match': ifMatch },
    );
  const remove = async (id: string, ifMatch: string) =>
    s.client.request(`${USERS}/${id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${await token()}`, 'If-Match': ifMatch },
    });
  const created = async () => {
    const response = await s.client.send(
      'POST',
      USERS,
      usersDocument({ email: uniqueEmail(), password: 'etag-password-1', name: 'Before' }),
      await token(),
    );
    expect(response.status).toBe(201);
    return { id: ((await response.json()) as UserDocument).data.id, etag: response.headers.get('etag') };
  };

  it('POST, GET and PATCH carry one strong ETag, stable while the user is unchanged and new after each change', async () => {
    const user = await created();
    expect(user.etag).toMatch(/^"[^"]+"$/);
    const [first, second] = [await read(user.id), await read(user.id)];
    expect([first.headers.get('etag'), second.headers.get('etag')]).toEqual([user.etag, user.etag]);

    const patched = await patch(user.id, { name: 'After' });
    expect(patched.status).toBe(200);
    const next = patched.headers.get('etag');
    expect(next).toMatch(/^"[^"]+"$/);
    expect(next).not.toBe(user.etag);
    expect((await read(user.id)).headers.get('etag')).toBe(next);
  });

  it('PATCH with the current ETag in If-Match answers 200; with a stale one 412, changing nothing', async () => {
    const user = await created();
    const current = await patch(user.id, { name: 'Second' }, user.etag!);
    expect(current.status).toBe(200);

    await expectError(await patch(user.id, { name: 'Overwrite' }, user.etag!), 412, 'precondition_failed', {
      detail: STALE_DETAIL,
    });
    const stored = await read(user.id);
    expect((await stored.json()).data.attributes.name).toBe('Second');
    expect(stored.headers.get('etag')).toBe(current.headers.get('etag'));
  });

  it.each([
    ['any of several tags', (etag: string) => `"0", ${etag}`, 200],
    ['*', () => '*', 200],
    ['the weak form of the current tag (If-Match compares strongly)', (etag: string) => `W/${etag}`, 412],
    ['something that is no entity tag', () => 'garbage', 412],
  ])('PATCH with If-Match of %s answers %i', async (_, ifMatch, status) => {
    const user = await created();
    expect((await patch(user.id, { name: 'Changed' }, ifMatch(user.etag!))).status).toBe(status);
  });

  it('DELETE with a stale ETag answers 412 and deletes nothing; with the current one 204', async () => {
    const user = await created();
    const changed = await patch(user.id, { name: 'Changed' });
    await expectError(await remove(user.id, user.etag!), 412, 'precondition_failed', { detail: STALE_DETAIL });
    expect((await read(user.id)).status).toBe(200);
    expect((await remove(user.id, changed.headers.get('etag')!)).status).toBe(204);
    expect((await read(user.id)).status).toBe(404);
  });

  it('PATCH or DELETE of an unknown user with If-Match answers 404, not 412', async () => {
    await expectError(await patch(UNKNOWN_ID, { name: 'x' }, '"1"'), 404, 'not_found');
    await expectError(await remove(UNKNOWN_ID, '"1"'), 404, 'not_found');
  });

  it(`of two PATCHes sent at once with the same If-Match, exactly one lands and the other gets 412, in ${ROUNDS} rounds`, async () => {
    // The admin signs in once before the rounds: forty first sign-ins at once would meet the login throttle.
    await token();
    const rounds = await Promise.all(
      Array.from({ length: ROUNDS }, async (_, round) => {
        const user = await created();
        const responses = await Promise.all([
          patch(user.id, { name: `A${round}`, metadata: { by: 'a' } }, user.etag!),
          patch(user.id, { name: `B${round}`, metadata: { by: 'b' } }, user.etag!),
        ]);
        const statuses = responses.map((response) => response.status);
        const { attributes } = (await (await read(user.id)).json()).data;
        const winner = statuses.indexOf(200) === 0 ? 'a' : 'b';
        return {
          statuses: statuses.toSorted(),
          whole: attributes.metadata.by === winner && attributes.name === `${winner.toUpperCase()}${round}`,
        };
      }),
    );
    expect(rounds.filter((round) => round.statuses.join() !== '200,412' || !round.whole)).toEqual([]);
  });

  it('GET and PATCH /v1/users/me carry the ETag; PATCH with a stale one answers 412', async () => {
    const user = await created();
    const email = (await (await read(user.id)).json()).data.attributes.email;
    const session = await s.client.userSession(email, 'etag-password-1');
    const me = await s.client.get('/v1/users/me', session.accessToken);
    expect(me.headers.get('etag')).toBe(user.etag);
    await patch(user.id, { metadata: { changed: 'by an admin' } });
    const stale = await s.client.send('PATCH', '/v1/users/me', usersDocument({ name: 'Mine' }), session.accessToken, {
      'If-Match': user.etag!,
    });
    await expectError(stale, 412, 'precondition_failed');
    const fresh = (await s.client.get('/v1/users/me', session.accessToken)).headers.get('etag')!;
    const applied = await s.client.send('PATCH', '/v1/users/me', usersDocument({ name: 'Mine' }), session.accessToken, {
      'If-Match': fresh,
    });
    expect(applied.status).toBe(200);
    expect(applied.headers.get('etag')).not.toBe(fresh);
  });
});
