import { describe, expect, it } from './test-api.ts';
import { SYSTEM, type AuditAction } from '../audit/audit-event.ts';
import { auditRecord } from '../audit/audit-records.ts';
import type { OAuthClient } from '../openid/oauth-client.ts';
import type { Repositories } from '../repositories.ts';
import { ValidationError } from '../shared/errors.ts';
import { useFreshRepositories, type OpenRepositories } from './contract-harness.ts';
import { OPENID_T0, openIdAt, sampleOAuthClient, sampleOpenIdRecord } from './openid-samples.ts';

/** Concurrent changes, half on each instance: enough for a lost update to show. */
const RACERS = 6;

let made = 0;
const event = (action: AuditAction, id: string) => {
  made += 1;
  return auditRecord(`28300000-0000-4000-8000-${made.toString(16).padStart(12, '0')}`, OPENID_T0, SYSTEM, action, {
    type: 'oauth_clients',
    id,
  });
};

/** The behaviour every OAuthClientRepository promises. */
export function describeOAuthClientRepositoryContract(backend: string, open: OpenRepositories): void {
  describe(`OAuthClientRepository contract (${backend})`, () => {
    let repositories: Repositories;
    let another: Repositories;
    useFreshRepositories(open, (opened, second) => {
      repositories = opened;
      another = second;
    });

    /** The events recorded, newest first. */
    const actions = async () => (await repositories.audit.list({ page: 1, size: 100 })).events.map((e) => e.action);
    const create = (client: OAuthClient, on = repositories) =>
      on.oauthClients.create(client, event('oauth_client.created', client.id));

    it('stores a client as given, with its event, found by id on any instance', async () => {
      const client = sampleOAuthClient({ scopes: ['openid', 'email', 'metadata', 'app', 'offline_access'] });
      expect(await create(client)).toEqual(client);
      expect(await repositories.oauthClients.get(client.id)).toEqual(client);
      expect(await another.oauthClients.get(client.id)).toEqual(client);
      expect(await actions()).toEqual(['oauth_client.created']);
    });

    it('stores a native public client without a secret, with no post-logout URIs', async () => {
      const client = sampleOAuthClient({
        type: 'public',
        applicationType: 'native',
        redirectUris: ['http://127.0.0.1/callback', 'com.example.app:/cb'],
        postLogoutRedirectUris: [],
        scopes: ['openid'],
        firstParty: true,
        idTokenSigningAlgorithm: 'RS256',
        secret: null,
      });
      await create(client);
      expect(await another.oauthClients.get(client.id)).toEqual(client);
    });

    it('lists every client, oldest first, then by id', async () => {
      const second = sampleOAuthClient({ created: openIdAt(2) });
      const first = sampleOAuthClient({ created: openIdAt(1) });
      const third = sampleOAuthClient({ created: openIdAt(2), id: '28000000-0000-4000-8000-ffffffffffff' });
      for (const client of [second, third, first]) await create(client);
      expect((await another.oauthClients.list()).map((client) => client.id)).toEqual([first.id, second.id, third.id]);
      expect(await repositories.oauthClients.list()).toEqual([first, second, third]);
    });

    it('answers null or false for an unknown client, and records nothing', async () => {
      const unknown = sampleOAuthClient();
      expect(await repositories.oauthClients.get(unknown.id)).toBeNull();
      expect(await repositories.oauthClients.get('not-a-uuid')).toBeNull();
      const change = (current: OAuthClient) => ({ client: current, audit: event('oauth_client.updated', unknown.id) });
      expect(await repositories.oauthClients.update(unknown.id, change)).toBeNull();
      expect(await repositories.oauthClients.delete(unknown.id, event('oauth_client.deleted', unknown.id))).toBe(false);
      expect(await repositories.oauthClients.list()).toEqual([]);
      expect(await actions()).toEqual([]);
    });

    it('updates what the change gives, with its event, keeping its id and creation', async () => {
      const client = await create(sampleOAuthClient());
      const changed: OAuthClient = {
        ...client,
        name: 'Renamed',
        redirectUris: ['https://renamed.example.com/cb'],
        postLogoutRedirectUris: [],
        scopes: ['openid', 'app'],
        firstParty: true,
        idTokenSigningAlgorithm: 'EdDSA',
        secret: { keyId: 'key-2', ciphertext: 'rotated' },
        updated: openIdAt(5),
      };
      const updated = await another.oauthClients.update(client.id, (current) => {
        expect(current).toEqual(client);
        return {
          client: { ...changed, id: 'not-written', created: openIdAt(9) },
          audit: event('oauth_client.secret_rotated', client.id),
        };
      });
      expect(updated).toEqual(changed);
      expect(await repositories.oauthClients.get(client.id)).toEqual(changed);
      expect(await actions()).toEqual(['oauth_client.secret_rotated', 'oauth_client.created']);
    });

    it('records nothing for a change without an event', async () => {
      const client = await create(sampleOAuthClient());
      const updated = await repositories.oauthClients.update(client.id, (current) => ({
        client: { ...current, name: 'Quietly renamed' },
        audit: null,
      }));
      expect(updated).toEqual({ ...client, name: 'Quietly renamed' });
      expect(await actions()).toEqual(['oauth_client.created']);
    });

    it('does not write a change the rules refuse, nor its event', async () => {
      const client = await create(sampleOAuthClient());
      const refusal = new ValidationError([
        { source: { pointer: '/data/attributes/redirect_uris' }, detail: 'Refused.' },
      ]);
      await expect(
        repositories.oauthClients.update(client.id, () => {
          throw refusal;
        }),
      ).rejects.toBe(refusal);
      expect(await repositories.oauthClients.get(client.id)).toEqual(client);
      expect(await actions()).toEqual(['oauth_client.created']);
    });

    it(`loses none of ${RACERS} concurrent changes to one client, on two instances`, async () => {
      const client = await create(sampleOAuthClient({ redirectUris: [] }));
      await Promise.all(
        Array.from({ length: RACERS }, (_, racer) =>
          (racer % 2 === 0 ? repositories : another).oauthClients.update(client.id, (current) => ({
            client: { ...current, redirectUris: [...current.redirectUris, `https://racer${racer}.example.com/cb`] },
            audit: event('oauth_client.updated', client.id),
          })),
        ),
      );
      const stored = await repositories.oauthClients.get(client.id);
      expect([...(stored?.redirectUris ?? [])].sort()).toEqual(
        Array.from({ length: RACERS }, (_, racer) => `https://racer${racer}.example.com/cb`),
      );
      expect((await actions()).length).toBe(RACERS + 1);
    });

    it('deletes a client with its event, and everything the engine stored for it, leaving the others', async () => {
      const [gone, kept] = [await create(sampleOAuthClient()), await create(sampleOAuthClient())];
      const goneRecords = ['Grant', 'AuthorizationCode', 'AccessToken', 'RefreshToken'].map((model) =>
        sampleOpenIdRecord(model, { clientId: gone.id, grantId: `grant-of-${gone.id}`, accountId: 'someone' }),
      );
      const keptRecord = sampleOpenIdRecord('Grant', { clientId: kept.id, grantId: `grant-of-${kept.id}` });
      const unrelated = sampleOpenIdRecord('Session', { uid: 'session-uid', accountId: 'someone' });
      for (const record of [...goneRecords, keptRecord, unrelated]) await repositories.openIdRecords.upsert(record);

      expect(await another.oauthClients.delete(gone.id, event('oauth_client.deleted', gone.id))).toBe(true);
      expect(await repositories.oauthClients.get(gone.id)).toBeNull();
      expect(await repositories.oauthClients.list()).toEqual([kept]);
      for (const record of goneRecords) {
        expect(await repositories.openIdRecords.find(record.model, record.id, OPENID_T0)).toBeNull();
      }
      expect(await repositories.openIdRecords.find('Grant', keptRecord.id, OPENID_T0)).toEqual({
        ...keptRecord,
        consumed: null,
      });
      expect(await repositories.openIdRecords.find('Session', unrelated.id, OPENID_T0)).not.toBeNull();
      expect(await actions()).toEqual(['oauth_client.deleted', 'oauth_client.created', 'oauth_client.created']);
      expect(await repositories.oauthClients.delete(gone.id, event('oauth_client.deleted', gone.id))).toBe(false);
      expect((await actions()).length).toBe(3);
    });
  });
}
