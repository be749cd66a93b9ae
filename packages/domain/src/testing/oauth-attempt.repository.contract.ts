import { describe, expect, it } from './test-api.ts';
import { SYSTEM } from '../audit/audit-event.ts';
import { auditRecord } from '../audit/audit-records.ts';
import type { OAuthAttempt, UpstreamAccount } from '../identities/oauth-attempt.ts';
import type { Repositories } from '../repositories.ts';
import { useFreshRepositories, type OpenRepositories } from './contract-harness.ts';
import { IDENTITY_T0, identityAt, sampleIdentityProvider, sampleOAuthAttempt } from './identity-samples.ts';

/** Concurrent calls with one value per round, half on each instance, and rounds. */
const RACERS = 6;
const ROUNDS = 50;

let made = 0;
const auditId = () => {
  made += 1;
  return `27600000-0000-4000-8000-${made.toString(16).padStart(12, '0')}`;
};

const ACCOUNT: UpstreamAccount = {
  subject: '583231',
  email: 'octocat@example.org',
  emailVerified: true,
  name: 'Mona Lisa Octocat',
};

/** The behaviour every OAuthAttemptRepository promises: each single-use value spent once, by one caller. */
export function describeOAuthAttemptRepositoryContract(backend: string, open: OpenRepositories): void {
  describe(`OAuthAttemptRepository contract (${backend})`, () => {
    let repositories: Repositories;
    let another: Repositories;
    useFreshRepositories(open, (opened, second) => {
      repositories = opened;
      another = second;
    });

    const provider = async () => {
      const stored = sampleIdentityProvider();
      await repositories.identityProviders.create(
        stored,
        auditRecord(auditId(), IDENTITY_T0, SYSTEM, 'identity_provider.created', {
          type: 'identity_providers',
          id: stored.id,
        }),
      );
      return stored;
    };
    const started = async (overrides: Partial<OAuthAttempt> = {}) => {
      const attempt = sampleOAuthAttempt((await provider()).id, overrides);
      await repositories.oauthAttempts.create(attempt);
      return attempt;
    };
    const useState = (attempt: OAuthAttempt, seconds = 1, on = repositories) =>
      on.oauthAttempts.useState(attempt.stateDigest, attempt.providerId, attempt.browserDigest!, identityAt(seconds));
    /** The attempt through its callback, its code issued to the user the callback resolved. */
    const withCode = async (overrides: Partial<OAuthAttempt> = {}) => {
      const attempt = await started(overrides);
      await useState(attempt);
      const code = { digest: `code-${attempt.id}`, expires: identityAt(61), userId: 'user-1', account: null };
      await repositories.oauthAttempts.issueCode(attempt.id, code);
      return {
        ...attempt,
        stateUsed: identityAt(1),
        codeDigest: code.digest,
        codeExpires: code.expires,
        userId: 'user-1',
      };
    };

    it('useState() spends the state once, for its provider and browser, answering the attempt as stored', async () => {
      const attempt = await started();
      const spent = { ...attempt, stateUsed: identityAt(5) };
      expect(await useState(attempt, 5, another)).toEqual(spent);
      expect(await useState(attempt, 6)).toBeNull();
      expect(await useState(attempt, 6, another)).toBeNull();
    });

    it("useState() answers null for another provider's callback, another browser, an unknown state, or from its expiry on", async () => {
      const attempt = await started();
      const other = await provider();
      const { stateDigest, providerId, browserDigest } = attempt;
      const spend = (state: string, at: string, browser: string, seconds = 1) =>
        repositories.oauthAttempts.useState(state, at, browser, identityAt(seconds));
      expect(await spend(stateDigest, other.id, browserDigest!)).toBeNull();
      expect(await spend(stateDigest, providerId, 'another-browser')).toBeNull();
      expect(await spend('unknown-state', providerId, browserDigest!)).toBeNull();
      expect(await spend(stateDigest, providerId, browserDigest!, 600)).toBeNull();
      // None of them spent it.
      expect(await spend(stateDigest, providerId, browserDigest!, 599)).toEqual({
        ...attempt,
        stateUsed: identityAt(599),
      });
    });

    it("handOff() gives a link's attempt to one browser, once and before expiry; its state then works from that browser only", async () => {
      const attempt = await started({
        purpose: 'link',
        userId: 'user-7',
        handoffDigest: 'handoff-1',
        browserDigest: null,
      });
      const { stateDigest, providerId } = attempt;
      expect(await repositories.oauthAttempts.useState(stateDigest, providerId, '', identityAt(1))).toBeNull();
      expect(await repositories.oauthAttempts.handOff('handoff-1', 'browser-a', identityAt(600))).toBeNull();
      expect(await repositories.oauthAttempts.handOff('unknown', 'browser-a', identityAt(1))).toBeNull();
      const taken = { ...attempt, browserDigest: 'browser-a' };
      expect(await another.oauthAttempts.handOff('handoff-1', 'browser-a', identityAt(1))).toEqual(taken);
      expect(await repositories.oauthAttempts.handOff('handoff-1', 'browser-b', identityAt(2))).toBeNull();
      expect(await repositories.oauthAttempts.useState(stateDigest, providerId, 'browser-b', identityAt(3))).toBeNull();
      expect(await repositories.oauthAttempts.useState(stateDigest, providerId, 'browser-a', identityAt(3))).toEqual({
        ...taken,
        stateUsed: identityAt(3),
      });
    });

    it('redeemCode() spends the code once before its expiry, answering the user it signs in', async () => {
      const attempt = await withCode();
      expect(await repositories.oauthAttempts.redeemCode(attempt.codeDigest, identityAt(61))).toBeNull();
      expect(await repositories.oauthAttempts.redeemCode('unknown', identityAt(2))).toBeNull();
      expect(await another.oauthAttempts.redeemCode(attempt.codeDigest, identityAt(60))).toEqual({
        ...attempt,
        codeUsed: identityAt(60),
      });
      expect(await repositories.oauthAttempts.redeemCode(attempt.codeDigest, identityAt(60))).toBeNull();
    });

    it("issueCode() keeps a link's user and the account it links, for the redemption; a second code is not issued", async () => {
      const attempt = await started({ purpose: 'link', userId: 'user-7', handoffDigest: 'handoff-2' });
      await useState(attempt);
      await repositories.oauthAttempts.issueCode(attempt.id, {
        digest: 'code-link',
        expires: identityAt(61),
        userId: null,
        account: ACCOUNT,
      });
      await repositories.oauthAttempts.issueCode(attempt.id, {
        digest: 'code-again',
        expires: identityAt(61),
        userId: 'user-8',
        account: null,
      });
      expect(await repositories.oauthAttempts.redeemCode('code-again', identityAt(2))).toBeNull();
      expect(await repositories.oauthAttempts.redeemCode('code-link', identityAt(2))).toEqual({
        ...attempt,
        stateUsed: identityAt(1),
        codeDigest: 'code-link',
        codeExpires: identityAt(61),
        codeUsed: identityAt(2),
        account: ACCOUNT,
      });
    });

    it(`of ${RACERS} concurrent uses of one state, on two instances, exactly one wins: ${ROUNDS} rounds`, async () => {
      const winners: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const attempt = await started();
        const results = await Promise.all(
          Array.from({ length: RACERS }, (_, racer) => useState(attempt, 1, racer % 2 === 0 ? repositories : another)),
        );
        winners.push(results.filter((result) => result !== null).length);
      }
      expect(winners).toEqual(Array.from({ length: ROUNDS }, () => 1));
    });

    it(`of ${RACERS} concurrent redemptions of one code, on two instances, exactly one wins: ${ROUNDS} rounds`, async () => {
      const winners: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const { codeDigest } = await withCode();
        const results = await Promise.all(
          Array.from({ length: RACERS }, (_, racer) =>
            (racer % 2 === 0 ? repositories : another).oauthAttempts.redeemCode(codeDigest, identityAt(2)),
          ),
        );
        winners.push(results.filter((result) => result !== null).length);
      }
      expect(winners).toEqual(Array.from({ length: ROUNDS }, () => 1));
    });

    it(`of ${RACERS} concurrent hand-offs of one link, from different browsers on two instances, exactly one wins`, async () => {
      const winners: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const handoff = `handoff-race-${round}`;
        await started({ purpose: 'link', userId: 'user-7', handoffDigest: handoff, browserDigest: null });
        const results = await Promise.all(
          Array.from({ length: RACERS }, (_, racer) =>
            (racer % 2 === 0 ? repositories : another).oauthAttempts.handOff(
              handoff,
              `browser-${racer}`,
              identityAt(1),
            ),
          ),
        );
        winners.push(results.filter((result) => result !== null).length);
      }
      expect(winners).toEqual(Array.from({ length: ROUNDS }, () => 1));
    });

    it('deleteExpired() forgets the attempts whose state and code both expired before the cut-off, and only those', async () => {
      const expired = await started({ expires: identityAt(100) });
      const atCut = await started({ expires: identityAt(200) });
      const live = await started({ expires: identityAt(300) });
      // Its code (expiring at 61 s) outlives its state.
      const codeLive = await withCode({ expires: identityAt(50) });
      expect(await repositories.oauthAttempts.deleteExpired(identityAt(60))).toBe(0);
      expect(await repositories.oauthAttempts.redeemCode(codeLive.codeDigest, identityAt(55))).not.toBeNull();
      expect(await repositories.oauthAttempts.deleteExpired(identityAt(62))).toBe(1);
      expect(await another.oauthAttempts.deleteExpired(identityAt(200))).toBe(1);
      expect(await useState(expired, 1)).toBeNull();
      expect(await useState(atCut, 1)).not.toBeNull();
      expect(await useState(live, 1)).not.toBeNull();
    });
  });
}
