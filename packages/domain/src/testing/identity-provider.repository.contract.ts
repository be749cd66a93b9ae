import { describe, expect, it } from './test-api.ts';
import { SYSTEM, type AuditAction } from '../audit/audit-event.ts';
import { auditRecord } from '../audit/audit-records.ts';
import type { IdentityProvider } from '../identities/identity-provider.ts';
import type { Repositories } from '../repositories.ts';
import { SlugTakenError } from '../shared/errors.ts';
import { useFreshRepositories, type OpenRepositories } from './contract-harness.ts';
import {
  IDENTITY_T0,
  identityAt,
  sampleExternalIdentity,
  sampleIdentityProvider,
  sampleOAuthAttempt,
} from './identity-samples.ts';
import { sampleUser } from './user.repository.contract.ts';

/** Concurrent calls per round, half on each instance, and rounds: enough for a lost race to show. */
const RACERS = 6;
const ROUNDS = 20;

let made = 0;
const event = (action: AuditAction, id: string) => {
  made += 1;
  return auditRecord(`27300000-0000-4000-8000-${made.toString(16).padStart(12, '0')}`, IDENTITY_T0, SYSTEM, action, {
    type: 'identity_providers',
    id,
  });
};

/** The behaviour every IdentityProviderRepository promises. */
export function describeIdentityProviderRepositoryContract(backend: string, open: OpenRepositories): void {
  describe(`IdentityProviderRepository contract (${backend})`, () => {
    let repositories: Repositories;
    let another: Repositories;
    useFreshRepositories(open, (opened, second) => {
      repositories = opened;
      another = second;
    });

    /** The events recorded, newest first. */
    const actions = async () => (await repositories.audit.list({ page: 1, size: 100 })).events.map((e) => e.action);
    const create = (provider: IdentityProvider, on = repositories) =>
      on.identityProviders.create(provider, event('identity_provider.created', provider.id));

    it('stores a provider as given, with its event, found by id and by slug on any instance', async () => {
      const provider = sampleIdentityProvider({ scopes: ['user:email', 'read,write', 'a b'], autoLink: true });
      expect(await create(provider)).toEqual(provider);
      expect(await repositories.identityProviders.get(provider.id)).toEqual(provider);
      expect(await another.identityProviders.findBySlug(provider.slug)).toEqual(provider);
      expect(await actions()).toEqual(['identity_provider.created']);
    });

    it('stores a public client (no secret) and a preset without an issuer', async () => {
      const provider = sampleIdentityProvider({ kind: 'github', issuer: null, clientSecret: null, scopes: [] });
      await create(provider);
      expect(await repositories.identityProviders.get(provider.id)).toEqual(provider);
    });

    it('lists every provider, oldest first, then by id', async () => {
      const second = sampleIdentityProvider({ created: identityAt(2) });
      const first = sampleIdentityProvider({ created: identityAt(1) });
      const third = sampleIdentityProvider({ created: identityAt(2), id: '27000000-0000-4000-8000-ffffffffffff' });
      for (const provider of [second, third, first]) await create(provider);
      expect((await repositories.identityProviders.list()).map((provider) => provider.id)).toEqual([
        first.id,
        second.id,
        third.id,
      ]);
    });

    it('refuses a second provider with a slug taken, with SlugTakenError, storing and recording nothing', async () => {
      const first = await create(sampleIdentityProvider());
      const second = sampleIdentityProvider({ slug: first.slug });
      await expect(create(second)).rejects.toBeInstanceOf(SlugTakenError);
      expect(await repositories.identityProviders.get(second.id)).toBeNull();
      expect(await repositories.identityProviders.findBySlug(first.slug)).toEqual(first);
      expect(await actions()).toEqual(['identity_provider.created']);
    });

    it(`of ${RACERS} concurrent creates with one slug, on two instances, exactly one wins: ${ROUNDS} rounds`, async () => {
      const outcomes: string[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const slug = `race-${round}`;
        const settled = await Promise.allSettled(
          Array.from({ length: RACERS }, (_, racer) =>
            create(sampleIdentityProvider({ slug }), racer % 2 === 0 ? repositories : another),
          ),
        );
        const refused = settled.filter((s) => s.status === 'rejected' && s.reason instanceof SlugTakenError).length;
        outcomes.push(`${settled.filter((s) => s.status === 'fulfilled').length} won, ${refused} refused`);
      }
      expect(outcomes).toEqual(Array.from({ length: ROUNDS }, () => `1 won, ${RACERS - 1} refused`));
      expect((await repositories.identityProviders.list()).length).toBe(ROUNDS);
      expect((await actions()).length).toBe(ROUNDS);
    });

    it('answers null or false for an unknown provider, and records nothing', async () => {
      const unknown = sampleIdentityProvider();
      expect(await repositories.identityProviders.get(unknown.id)).toBeNull();
      expect(await repositories.identityProviders.get('not-a-uuid')).toBeNull();
      expect(await repositories.identityProviders.findBySlug(unknown.slug)).toBeNull();
      const change = (current: IdentityProvider) => ({
        provider: current,
        audit: event('identity_provider.updated', unknown.id),
      });
      expect(await repositories.identityProviders.update(unknown.id, change)).toBeNull();
      expect(
        await repositories.identityProviders.delete(unknown.id, event('identity_provider.deleted', unknown.id)),
      ).toBe(false);
      expect(await actions()).toEqual([]);
    });

    it('updates what the change gives, with its event, keeping its id and creation', async () => {
      const provider = await create(sampleIdentityProvider());
      const changed: IdentityProvider = {
        ...provider,
        issuer: 'https://login.example.net/tenant',
        clientId: 'other-client',
        clientSecret: { keyId: 'key-2', ciphertext: 'replaced' },
        scopes: ['email'],
        enabled: false,
        autoLink: true,
        updated: identityAt(5),
      };
      const updated = await another.identityProviders.update(provider.id, (current) => {
        expect(current).toEqual(provider);
        return {
          provider: { ...changed, id: 'not-written', created: identityAt(9) },
          audit: event('identity_provider.updated', provider.id),
        };
      });
      expect(updated).toEqual(changed);
      expect(await repositories.identityProviders.get(provider.id)).toEqual(changed);
      expect(await actions()).toEqual(['identity_provider.updated', 'identity_provider.created']);
    });

    it('records nothing for a change without an event, and can drop the secret', async () => {
      const provider = await create(sampleIdentityProvider());
      const updated = await repositories.identityProviders.update(provider.id, (current) => ({
        provider: { ...current, clientSecret: null },
        audit: null,
      }));
      expect(updated).toEqual({ ...provider, clientSecret: null });
      expect(await actions()).toEqual(['identity_provider.created']);
    });

    it('refuses a change to a slug another provider has, with SlugTakenError, changing and recording nothing', async () => {
      const first = await create(sampleIdentityProvider());
      const second = await create(sampleIdentityProvider());
      const change = (current: IdentityProvider) => ({
        provider: { ...current, slug: first.slug, enabled: false },
        audit: event('identity_provider.updated', second.id),
      });
      await expect(repositories.identityProviders.update(second.id, change)).rejects.toBeInstanceOf(SlugTakenError);
      expect(await repositories.identityProviders.get(second.id)).toEqual(second);
      expect((await actions()).filter((action) => action === 'identity_provider.updated')).toEqual([]);
    });

    it(`loses none of ${RACERS} concurrent changes to one provider, on two instances`, async () => {
      const provider = await create(sampleIdentityProvider({ scopes: [] }));
      await Promise.all(
        Array.from({ length: RACERS }, (_, racer) =>
          (racer % 2 === 0 ? repositories : another).identityProviders.update(provider.id, (current) => ({
            provider: { ...current, scopes: [...current.scopes, `scope-${racer}`] },
            audit: event('identity_provider.updated', provider.id),
          })),
        ),
      );
      const stored = await repositories.identityProviders.get(provider.id);
      expect([...(stored?.scopes ?? [])].sort()).toEqual(
        Array.from({ length: RACERS }, (_, racer) => `scope-${racer}`),
      );
    });

    it('deletes a provider with its event, and its identities and attempts with it, leaving the others', async () => {
      const user = sampleUser();
      await repositories.users.insert(user);
      const [gone, kept] = [await create(sampleIdentityProvider()), await create(sampleIdentityProvider())];
      const audit = (id: string) => event('user.identity_linked', id);
      const goneIdentity = sampleExternalIdentity(user.id, gone.id);
      const keptIdentity = sampleExternalIdentity(user.id, kept.id);
      await repositories.externalIdentities.link(goneIdentity, audit(user.id));
      await repositories.externalIdentities.link(keptIdentity, audit(user.id));
      const goneAttempt = sampleOAuthAttempt(gone.id);
      const keptAttempt = sampleOAuthAttempt(kept.id);
      await repositories.oauthAttempts.create(goneAttempt);
      await repositories.oauthAttempts.create(keptAttempt);

      expect(await another.identityProviders.delete(gone.id, event('identity_provider.deleted', gone.id))).toBe(true);
      expect(await repositories.identityProviders.get(gone.id)).toBeNull();
      expect(await repositories.identityProviders.findBySlug(gone.slug)).toBeNull();
      expect(await repositories.identityProviders.list()).toEqual([kept]);
      expect(await repositories.externalIdentities.listByUser(user.id)).toEqual([keptIdentity]);
      expect(await repositories.externalIdentities.findBySubject(gone.id, goneIdentity.subject)).toBeNull();
      const spend = ({ stateDigest, providerId, browserDigest }: typeof goneAttempt) =>
        repositories.oauthAttempts.useState(stateDigest, providerId, browserDigest!, identityAt(1));
      expect(await spend(goneAttempt)).toBeNull();
      expect(await spend(keptAttempt)).not.toBeNull();
      expect((await actions())[0]).toBe('identity_provider.deleted');
      expect(await repositories.identityProviders.delete(gone.id, event('identity_provider.deleted', gone.id))).toBe(
        false,
      );
    });
  });
}
