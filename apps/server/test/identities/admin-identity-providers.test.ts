import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditRecord, NO_PASSWORD_HASH, SYSTEM, type ExternalIdentity } from '@uas/domain';
import { bearer } from '@uas/adapters-http/testing';
import { loadConfig } from '../../src/config';
import type { AdminClient } from '../support/admin-client';
import { ROUNDS, rounds, tally } from '../support/race-rounds';
import { storedData } from '../support/stored-data';
import { BACKENDS } from '../support/test-application';
import { withApplicationDatabase } from '../support/token-forgery';
import { twoInstances } from '../support/two-instances';

const PATH = '/v1/admin/identity-providers';
const document = (attributes: Record<string, unknown>) => ({ data: { type: 'identity_providers', attributes } });
const github = (slug: string, secret: string) => ({
  slug,
  kind: 'github',
  client_id: 'Iv1.abc',
  client_secret: secret,
});

interface ProviderResource {
  id: string;
  attributes: { slug: string; enabled: boolean; auto_link: boolean; scopes: string[]; client_secret_set: boolean };
}

/**
 * The admin routes of identity providers and users' identities on the real application, two
 * instances over one database: secrets never stored or logged in clear, and every write raced.
 */
describe.each(BACKENDS)('identity providers and identities, admin side, on %s across two instances', (backend) => {
  const instances = twoInstances(backend);
  const tokens = new Map<AdminClient, string>();
  let clientA: AdminClient;
  let clientB: AdminClient;
  beforeAll(async () => {
    ({ clientA, clientB } = instances);
    tokens.set(clientA, await clientA.adminToken());
    tokens.set(clientB, await clientB.adminToken());
  });

  const read = async (response: Response) => ((await response.json()) as { data: ProviderResource }).data;
  const post = (client: AdminClient, attributes: Record<string, unknown>) =>
    client.send('POST', PATH, document(attributes), tokens.get(client));
  const patch = (client: AdminClient, id: string, attributes: Record<string, unknown>) =>
    client.send('PATCH', `${PATH}/${id}`, document(attributes), tokens.get(client));
  const remove = (client: AdminClient, path: string) =>
    client.request(path, { method: 'DELETE', headers: bearer(tokens.get(client)!) });
  const codeOf = async (response: Response) =>
    response.status >= 400 ? ((await response.json()) as { errors: { code: string }[] }).errors[0]!.code : null;

  it('stores a client secret only sealed, and never logs or answers it, also once replaced', async () => {
    const [secret, replaced] = [`gh-secret-${randomUUID()}`, `gh-secret-${randomUUID()}`];
    const created = await post(clientA, github('sealed', secret));
    expect(created.status).toBe(201);
    const { id, attributes } = await read(created);
    expect(attributes.client_secret_set).toBe(true);
    expect((await patch(clientB, id, { client_secret: replaced })).status).toBe(200);
    const answers = await Promise.all([
      clientA.get(PATH, tokens.get(clientA)),
      clientB.get(`${PATH}/${id}`, tokens.get(clientB)),
    ]);
    const everywhere = [
      ...(await Promise.all(answers.map((answer) => answer.text()))),
      await (await clientA.get('/v1/admin/audit-events', tokens.get(clientA))).text(),
      instances.a.logs.join('\n'),
      instances.b.logs.join('\n'),
      await storedData(loadConfig(instances.a.env)),
    ].join('\n');
    expect(everywhere).toContain(id);
    for (const clear of [secret, replaced]) expect(everywhere).not.toContain(clear);
  });

  it(`one slug, two creations at once on both instances: exactly one 201, the other 409 slug_taken, ${ROUNDS} rounds`, async () => {
    const outcomes = await rounds(async (index) => {
      const slug = `race-${index}`;
      const answers = await Promise.all([post(clientA, github(slug, 'a')), post(clientB, github(slug, 'b'))]);
      return (await Promise.all(answers.map(async (answer) => `${answer.status} ${await codeOf(answer)}`))).sort();
    });
    console.info(`two creations of one slug (${backend}):`, tally(outcomes.flat()));
    expect(outcomes.filter((outcome) => outcome.join() !== '201 null,409 slug_taken')).toEqual([]);
  }, 120_000);

  it(`changes of different attributes on both instances at once: none lost, ${ROUNDS} rounds`, async () => {
    const outcomes = await rounds(async (index) => {
      const { id } = await read(await post(clientA, github(`change-${index}`, 's')));
      const answers = await Promise.all([
        patch(clientA, id, { enabled: false }),
        patch(clientB, id, { auto_link: true }),
        patch(clientB, id, { scopes: ['read:org'] }),
      ]);
      const stored = (await read(await clientA.get(`${PATH}/${id}`, tokens.get(clientA)))).attributes;
      const lost = [stored.enabled, !stored.auto_link, stored.scopes.join() !== 'read:org'].filter(Boolean).length;
      return { statuses: answers.map((answer) => answer.status), lost };
    });
    console.info(`three changes at once (${backend}):`, tally(outcomes.flatMap((outcome) => outcome.statuses)));
    expect(outcomes.filter((outcome) => outcome.statuses.some((status) => status !== 200) || outcome.lost > 0)).toEqual(
      [],
    );
  }, 120_000);

  it(`two deletions at once on both instances: exactly one 204, the other 404, ${ROUNDS} rounds`, async () => {
    const outcomes = await rounds(async (index) => {
      const { id } = await read(await post(clientA, github(`gone-${index}`, 's')));
      const answers = await Promise.all([remove(clientA, `${PATH}/${id}`), remove(clientB, `${PATH}/${id}`)]);
      return answers.map((answer) => answer.status).sort();
    });
    console.info(`two deletions at once (${backend}):`, tally(outcomes.flat()));
    expect(outcomes.filter((outcome) => outcome.join() !== '204,404')).toEqual([]);
  }, 120_000);

  it(`a user with two identities and no password, both unlinked at once: exactly one 204, the other 409 last_sign_in_method, ${ROUNDS} rounds`, async () => {
    const providers = await Promise.all(
      ['left', 'right'].map(async (slug) => (await read(await post(clientA, github(slug, 's')))).id),
    );
    const outcomes = await rounds(async (index) => {
      const user = await clientA.createUser({
        email: `unlink-${index}@example.com`,
        password: 'correct horse battery',
      });
      const identities = await withApplicationDatabase(instances.a, async ({ repositories }) => {
        await repositories.users.update(user.id, (current) => ({
          user: { ...current, passwordHash: NO_PASSWORD_HASH },
        }));
        return Promise.all(
          providers.map(async (providerId) => {
            const now = instances.a.clock.now();
            const identity: ExternalIdentity = {
              id: randomUUID(),
              userId: user.id,
              providerId,
              subject: `subject-${index}`,
              email: null,
              emailVerified: false,
              created: now,
              lastSignIn: null,
            };
            const audit = auditRecord(randomUUID(), now, SYSTEM, 'user.identity_linked', {
              type: 'users',
              id: user.id,
            });
            await repositories.externalIdentities.link(identity, audit);
            return identity.id;
          }),
        );
      });
      const path = (identityId: string) => `/v1/admin/users/${user.id}/identities/${identityId}`;
      const answers = await Promise.all([remove(clientA, path(identities[0]!)), remove(clientB, path(identities[1]!))]);
      const left = (
        (await (await clientA.get(`/v1/admin/users/${user.id}/identities`, tokens.get(clientA))).json()) as {
          meta: { total: number };
        }
      ).meta.total;
      return { answers: (await Promise.all(answers.map(async (a) => `${a.status} ${await codeOf(a)}`))).sort(), left };
    });
    console.info(`two unlinks at once (${backend}):`, tally(outcomes.flatMap((outcome) => outcome.answers)));
    expect(
      outcomes.filter((outcome) => outcome.answers.join() !== '204 null,409 last_sign_in_method' || outcome.left !== 1),
    ).toEqual([]);
  }, 180_000);
});
