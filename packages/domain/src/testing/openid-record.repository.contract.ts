import { describe, expect, it } from './test-api.ts';
import { SYSTEM } from '../audit/audit-event.ts';
import { auditRecord } from '../audit/audit-records.ts';
import type { OpenIdRecordDraft } from '../openid/openid-record.ts';
import type { Repositories } from '../repositories.ts';
import { useFreshRepositories, type OpenRepositories } from './contract-harness.ts';
import { OPENID_T0, openIdAt, sampleOpenIdRecord } from './openid-samples.ts';
import { sampleUser } from './user.repository.contract.ts';

/** Concurrent consumes of one record per round, half on each instance, and rounds: enough for a second winner to show. */
const RACERS = 20;
const ROUNDS = 50;

let made = 0;
const revoked = (grantId: string) => {
  made += 1;
  return auditRecord(
    `28400000-0000-4000-8000-${made.toString(16).padStart(12, '0')}`,
    OPENID_T0,
    SYSTEM,
    'oauth_grant.revoked',
    { type: 'oauth_grants', id: grantId },
    { reason: { before: null, after: 'code_reused' } },
  );
};

/** The behaviour every OpenIdRecordRepository promises. */
export function describeOpenIdRecordRepositoryContract(backend: string, open: OpenRepositories): void {
  describe(`OpenIdRecordRepository contract (${backend})`, () => {
    let repositories: Repositories;
    let another: Repositories;
    useFreshRepositories(open, (opened, second) => {
      repositories = opened;
      another = second;
    });

    const actions = async () => (await repositories.audit.list({ page: 1, size: 100 })).events.map((e) => e.action);
    const store = async (model: string, overrides: Partial<OpenIdRecordDraft> = {}) => {
      const record = sampleOpenIdRecord(model, overrides);
      await repositories.openIdRecords.upsert(record);
      return record;
    };
    const unused = (record: OpenIdRecordDraft) => ({ ...record, consumed: null });

    it('stores a record as given, found by model and id on any instance', async () => {
      const record = await store('AuthorizationCode', {
        grantId: 'grant-1',
        accountId: 'account-1',
        clientId: 'client-1',
        payload: { a: { b: [1, 2.5, 'three', null, false] }, scope: 'openid email', ключ: 'żółw 🐢' },
      });
      expect(await another.openIdRecords.find('AuthorizationCode', record.id, OPENID_T0)).toEqual(unused(record));
      expect(await repositories.openIdRecords.find('AccessToken', record.id, OPENID_T0)).toBeNull();
      expect(await repositories.openIdRecords.find('AuthorizationCode', 'unknown', OPENID_T0)).toBeNull();
    });

    it('keeps records of different models apart under one id', async () => {
      const code = await store('AuthorizationCode');
      const token = { ...sampleOpenIdRecord('AccessToken'), id: code.id };
      await repositories.openIdRecords.upsert(token);
      expect(await repositories.openIdRecords.find('AuthorizationCode', code.id, OPENID_T0)).toEqual(unused(code));
      expect(await repositories.openIdRecords.find('AccessToken', code.id, OPENID_T0)).toEqual(unused(token));
    });

    it('answers a record until it expires; one without an expiry never does', async () => {
      const record = await store('Interaction', { expires: openIdAt(60) });
      const lasting = await store('Grant', { expires: null });
      expect(await repositories.openIdRecords.find('Interaction', record.id, openIdAt(59))).toEqual(unused(record));
      expect(await repositories.openIdRecords.find('Interaction', record.id, openIdAt(60))).toBeNull();
      expect(await another.openIdRecords.find('Grant', lasting.id, openIdAt(10 ** 9))).toEqual(unused(lasting));
    });

    it('replaces a record of the same model and id, keeping when it was consumed', async () => {
      const record = await store('RefreshToken', { grantId: 'grant-1' });
      expect(await repositories.openIdRecords.consume('RefreshToken', record.id, openIdAt(5))).toEqual({
        outcome: 'consumed',
      });
      const replaced: OpenIdRecordDraft = {
        ...record,
        payload: { replaced: true },
        grantId: 'grant-2',
        uid: 'uid-2',
        accountId: 'account-2',
        clientId: 'client-2',
        expires: openIdAt(7200),
      };
      await another.openIdRecords.upsert(replaced);
      expect(await repositories.openIdRecords.find('RefreshToken', record.id, OPENID_T0)).toEqual({
        ...replaced,
        consumed: openIdAt(5),
      });
      const fresh = await store('Session');
      await repositories.openIdRecords.upsert({ ...fresh, payload: { again: 1 } });
      expect(await repositories.openIdRecords.find('Session', fresh.id, OPENID_T0)).toEqual({
        ...unused(fresh),
        payload: { again: 1 },
      });
    });

    it('finds an unexpired record of a model by its uid', async () => {
      const session = await store('Session', { uid: 'uid-of-session', expires: openIdAt(60) });
      await store('Interaction', { uid: 'uid-of-interaction' });
      expect(await another.openIdRecords.findByUid('Session', 'uid-of-session', OPENID_T0)).toEqual(unused(session));
      expect(await repositories.openIdRecords.findByUid('Interaction', 'uid-of-session', OPENID_T0)).toBeNull();
      expect(await repositories.openIdRecords.findByUid('Session', 'uid-of-interaction', OPENID_T0)).toBeNull();
      expect(await repositories.openIdRecords.findByUid('Session', 'uid-of-session', openIdAt(60))).toBeNull();
    });

    it('consumes a record once: then answers when it was, and "missing" for none', async () => {
      const code = await store('AuthorizationCode');
      expect(await repositories.openIdRecords.consume('AuthorizationCode', code.id, openIdAt(3))).toEqual({
        outcome: 'consumed',
      });
      expect(await another.openIdRecords.consume('AuthorizationCode', code.id, openIdAt(4))).toEqual({
        outcome: 'already',
        at: openIdAt(3),
      });
      expect(await repositories.openIdRecords.find('AuthorizationCode', code.id, OPENID_T0)).toEqual({
        ...code,
        consumed: openIdAt(3),
      });
      expect(await repositories.openIdRecords.consume('AccessToken', code.id, openIdAt(4))).toEqual({
        outcome: 'missing',
      });
      expect(await repositories.openIdRecords.consume('AuthorizationCode', 'unknown', openIdAt(4))).toEqual({
        outcome: 'missing',
      });
    });

    it(`of ${RACERS} concurrent consumes of one code, on two instances, exactly one wins: ${ROUNDS} rounds`, async () => {
      const outcomes: string[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const code = await store('AuthorizationCode');
        const answers = await Promise.all(
          Array.from({ length: RACERS }, (_, racer) =>
            (racer % 2 === 0 ? repositories : another).openIdRecords.consume(
              'AuthorizationCode',
              code.id,
              openIdAt(racer + 1),
            ),
          ),
        );
        const won = answers.flatMap((answer, racer) => (answer.outcome === 'consumed' ? [racer] : []));
        const already = answers.filter(
          (answer) =>
            answer.outcome === 'already' && won.length === 1 && answer.at.getTime() === openIdAt(won[0]! + 1).getTime(),
        ).length;
        outcomes.push(`${won.length} consumed, ${already} already`);
      }
      expect(outcomes).toEqual(Array.from({ length: ROUNDS }, () => `1 consumed, ${RACERS - 1} already`));
    });

    it('destroys one record, leaving the others', async () => {
      const [gone, kept] = [await store('AccessToken'), await store('AccessToken')];
      await another.openIdRecords.destroy('AccessToken', gone.id);
      await repositories.openIdRecords.destroy('AccessToken', 'unknown');
      expect(await repositories.openIdRecords.find('AccessToken', gone.id, OPENID_T0)).toBeNull();
      expect(await repositories.openIdRecords.find('AccessToken', kept.id, OPENID_T0)).toEqual(unused(kept));
    });

    it('revokes a grant: every record of it goes, with the event, answering how many; other grants stay', async () => {
      const models = ['Grant', 'AuthorizationCode', 'AccessToken', 'RefreshToken'];
      const gone: OpenIdRecordDraft[] = [];
      for (const model of models) gone.push(await store(model, { grantId: 'grant-gone', clientId: 'client-1' }));
      const kept = await store('AccessToken', { grantId: 'grant-kept', clientId: 'client-1' });
      expect(await another.openIdRecords.revokeGrant('grant-gone', revoked('grant-gone'))).toBe(models.length);
      for (const record of gone)
        expect(await repositories.openIdRecords.find(record.model, record.id, OPENID_T0)).toBeNull();
      expect(await repositories.openIdRecords.find('AccessToken', kept.id, OPENID_T0)).toEqual(unused(kept));
      expect(await actions()).toEqual(['oauth_grant.revoked']);
      const events = (await repositories.audit.list({ page: 1, size: 10 })).events;
      expect(events[0]?.target).toEqual({ type: 'oauth_grants', id: 'grant-gone' });
    });

    it('records nothing when a grant has no record left (revoked already), and revokes without an event when given none', async () => {
      await store('Grant', { grantId: 'grant-quiet' });
      expect(await repositories.openIdRecords.revokeGrant('grant-quiet')).toBe(1);
      expect(await repositories.openIdRecords.revokeGrant('grant-quiet', revoked('grant-quiet'))).toBe(0);
      expect(await actions()).toEqual([]);
    });

    it("lists a user's unexpired records of a model, in the order first stored", async () => {
      const first = await store('Grant', { accountId: 'account-1', expires: null });
      const second = await store('Grant', { accountId: 'account-1' });
      await store('Grant', { accountId: 'account-1', expires: openIdAt(10) });
      await store('Grant', { accountId: 'account-2' });
      await store('AccessToken', { accountId: 'account-1' });
      const replaced = { ...first, payload: { replaced: true } };
      await repositories.openIdRecords.upsert(replaced);
      expect(await another.openIdRecords.listByAccount('Grant', 'account-1', openIdAt(10))).toEqual([
        unused(replaced),
        unused(second),
      ]);
      expect(await repositories.openIdRecords.listByAccount('Grant', 'account-3', OPENID_T0)).toEqual([]);
    });

    it('deletes expired records, at most `limit` at a time, answering how many', async () => {
      const expired = [
        await store('Session', { expires: openIdAt(1) }),
        await store('Interaction', { expires: openIdAt(2) }),
      ];
      await store('AccessToken', { expires: openIdAt(3) });
      const lasting = await store('Grant', { expires: null });
      expect(await repositories.openIdRecords.deleteExpired(openIdAt(3), 1)).toBe(1);
      expect(await another.openIdRecords.deleteExpired(openIdAt(3), 10)).toBe(1);
      expect(await repositories.openIdRecords.deleteExpired(openIdAt(3), 10)).toBe(0);
      for (const record of expired)
        expect(await repositories.openIdRecords.find(record.model, record.id, OPENID_T0)).toBeNull();
      expect(await repositories.openIdRecords.deleteExpired(openIdAt(10 ** 6), 10)).toBe(1);
      expect(await repositories.openIdRecords.find('Grant', lasting.id, openIdAt(10 ** 6))).toEqual(unused(lasting));
    });

    it("a deleted user's records go with it", async () => {
      const [user, other] = [sampleUser(), sampleUser()];
      await repositories.users.insert(user);
      await repositories.users.insert(other);
      const theirs = [
        await store('Grant', { accountId: user.id }),
        await store('Session', { accountId: user.id, uid: 'u1' }),
      ];
      const kept = await store('Grant', { accountId: other.id });
      expect(await another.users.delete(user.id, OPENID_T0)).toBe(true);
      for (const record of theirs)
        expect(await repositories.openIdRecords.find(record.model, record.id, OPENID_T0)).toBeNull();
      expect(await repositories.openIdRecords.listByAccount('Grant', other.id, OPENID_T0)).toEqual([unused(kept)]);
    });

    // Whatever ends a user's sessions signs them out of every application too: the engine's
    // sessions, grants, codes and tokens about them go in the same transaction.
    const endings: [string, (repos: Repositories, userId: string) => Promise<unknown>][] = [
      [
        'a change of the user that ends their sessions (password, email, deactivation, ban)',
        (repos, userId) =>
          repos.users.update(userId, (current) => ({
            user: { ...current, active: 0, updated: OPENID_T0 },
            endSessions: {},
          })),
      ],
      [
        'a change that keeps the session making it (their own new password)',
        (repos, userId) =>
          repos.users.update(userId, (current) => ({
            user: { ...current, passwordHash: '$2b$04$another', updated: OPENID_T0 },
            endSessions: { keepSessionId: 'the-current-session' },
          })),
      ],
      [
        'signing them out everywhere',
        (repos, userId) => repos.sessions.revokeSubjectSessions('user', userId, OPENID_T0),
      ],
      ['removing every factor of theirs', (repos, userId) => repos.factors.removeAll('user', userId, OPENID_T0)],
      [
        'an import that ends their sessions',
        (repos, userId) =>
          repos.imports.importBatch(
            [],
            () => ({ outcomes: [], inserts: [], updates: [], endSessions: [userId], failure: null }),
            { write: true, now: OPENID_T0 },
          ),
      ],
    ];
    for (const [what, end] of endings) {
      it(`${what} ends the user's OpenID records, nobody else's`, async () => {
        const [user, other] = [sampleUser(), sampleUser()];
        await repositories.users.insert(user);
        await repositories.users.insert(other);
        const theirs = [
          await store('Session', { accountId: user.id, uid: `${user.id}-session` }),
          await store('Grant', { accountId: user.id, clientId: 'client-1' }),
          await store('AuthorizationCode', { accountId: user.id, clientId: 'client-1', grantId: 'grant-x' }),
          await store('AccessToken', { accountId: user.id, clientId: 'client-1', grantId: 'grant-x' }),
          await store('RefreshToken', { accountId: user.id, clientId: 'client-1', grantId: 'grant-x' }),
        ];
        const kept = await store('Grant', { accountId: other.id });
        const unrelated = await store('Interaction');
        await end(another, user.id);
        for (const record of theirs)
          expect(await repositories.openIdRecords.find(record.model, record.id, OPENID_T0)).toBeNull();
        expect(await repositories.openIdRecords.listByAccount('Grant', other.id, OPENID_T0)).toEqual([unused(kept)]);
        expect(await repositories.openIdRecords.find('Interaction', unrelated.id, OPENID_T0)).toEqual(
          unused(unrelated),
        );
      });
    }

    it("signing out everywhere records its event when the user had only OpenID sessions; an admin's keep a user's records", async () => {
      const user = sampleUser();
      await repositories.users.insert(user);
      const grant = await store('Grant', { accountId: user.id });
      // An admin's sessions are another account's, even under the same id.
      await repositories.sessions.revokeSubjectSessions('admin', user.id, OPENID_T0);
      expect(await repositories.openIdRecords.find('Grant', grant.id, OPENID_T0)).toEqual(unused(grant));
      const event = auditRecord(
        '28400000-0000-4000-9000-000000000001',
        OPENID_T0,
        SYSTEM,
        'session.revoked',
        { type: 'users', id: user.id },
        {},
      );
      await repositories.sessions.revokeSubjectSessions('user', user.id, OPENID_T0, undefined, event);
      expect(await repositories.openIdRecords.find('Grant', grant.id, OPENID_T0)).toBeNull();
      expect(await actions()).toEqual(['session.revoked']);
    });
  });
}
