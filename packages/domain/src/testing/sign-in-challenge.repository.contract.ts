import { describe, expect, it } from './test-api.ts';
import type { Repositories } from '../repositories.ts';
import type { SignInChallenge } from '../sign-in/sign-in-challenge.ts';
import { useFreshRepositories, type OpenRepositories } from './contract-harness.ts';
import { sampleAdmin } from './admin.repository.contract.ts';
import { sampleUser } from './user.repository.contract.ts';

const T0 = new Date('2026-01-01T00:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const MAX_FAILURES = 5;
/** Concurrent completions of one challenge per round, half on each instance, and rounds. */
const RACERS = 6;
const ROUNDS = 50;

let made = 0;
/** A challenge made at T0 that lasts 5 minutes: a user's unless told. */
function sampleChallenge(overrides: Partial<SignInChallenge> = {}): SignInChallenge {
  made += 1;
  return {
    id: `digest-${made}`,
    owner: 'user',
    subjectId: null,
    kinds: ['totp', 'webauthn', 'recovery_code'],
    webauthnChallenge: `webauthn-${made}`,
    methods: ['pwd'],
    created: T0,
    expires: at(300),
    failures: 0,
    completed: null,
    clientAddress: '203.0.113.9',
    userAgent: 'Contract/1.0',
    ...overrides,
  };
}

/** The behaviour every SignInChallengeRepository promises: completed once, every failure counted. */
export function describeSignInChallengeRepositoryContract(backend: string, open: OpenRepositories): void {
  describe(`SignInChallengeRepository contract (${backend})`, () => {
    let repositories: Repositories;
    let other: Repositories;
    useFreshRepositories(open, (opened, another) => {
      repositories = opened;
      other = another;
    });
    const created = async (overrides: Partial<SignInChallenge> = {}) => {
      const challenge = sampleChallenge(overrides);
      await repositories.signInChallenges.create(challenge);
      return challenge;
    };
    const ofNewUser = async (overrides: Partial<SignInChallenge> = {}) => {
      const user = sampleUser();
      await repositories.users.insert(user);
      return created({ subjectId: user.id, ...overrides });
    };

    it("create() stores a challenge that find() answers unchanged: a user's, an admin's, a passwordless one", async () => {
      const admin = sampleAdmin();
      await repositories.admins.insert(admin);
      const challenges = [
        await ofNewUser({ kinds: ['totp'], webauthnChallenge: null, clientAddress: null, userAgent: null }),
        await created({ owner: 'admin', subjectId: admin.id, kinds: ['recovery_code'] }),
        await created({ kinds: ['webauthn'], methods: [] }),
      ];
      for (const challenge of challenges)
        expect(await repositories.signInChallenges.find(challenge.id)).toEqual(challenge);
      expect(await repositories.signInChallenges.find('unknown')).toBeNull();
    });

    /** A wrong answer as the second step makes it: the challenge completed at `at(second)`, then given back. */
    async function failOnce(id: string, second: number): Promise<number> {
      await repositories.signInChallenges.complete(id, at(second), MAX_FAILURES);
      return repositories.signInChallenges.fail(id, at(second));
    }

    it('fail() gives back the challenge its answer completed, counting the failure; 0 and nothing changed otherwise', async () => {
      const challenge = await ofNewUser();
      expect(await failOnce(challenge.id, 1)).toBe(1);
      expect(await failOnce(challenge.id, 2)).toBe(2);
      expect(await repositories.signInChallenges.find(challenge.id)).toEqual({ ...challenge, failures: 2 });
      expect(await repositories.signInChallenges.fail(challenge.id, at(3))).toBe(0);
      expect(await repositories.signInChallenges.complete(challenge.id, at(4), MAX_FAILURES)).toBe(true);
      expect(await repositories.signInChallenges.fail(challenge.id, at(5))).toBe(0);
      expect(await repositories.signInChallenges.find(challenge.id)).toEqual({
        ...challenge,
        failures: 2,
        completed: at(4),
      });
      expect(await repositories.signInChallenges.fail('unknown', at(4))).toBe(0);
    });

    it('fail() gives a challenge back once when many try at once, on two instances', async () => {
      const challenge = await ofNewUser();
      await repositories.signInChallenges.complete(challenge.id, at(1), MAX_FAILURES);
      const counts = await Promise.all(
        Array.from({ length: 10 }, (_, racer) =>
          (racer % 2 === 0 ? repositories : other).signInChallenges.fail(challenge.id, at(1)),
        ),
      );
      expect([...counts].sort((a, b) => a - b)).toEqual([...Array.from({ length: 9 }, () => 0), 1]);
      expect((await repositories.signInChallenges.find(challenge.id))?.completed).toBeNull();
    });

    it('complete() completes a challenge once, and records when', async () => {
      const challenge = await ofNewUser();
      expect(await repositories.signInChallenges.complete(challenge.id, at(10), MAX_FAILURES)).toBe(true);
      expect(await repositories.signInChallenges.complete(challenge.id, at(11), MAX_FAILURES)).toBe(false);
      expect(await repositories.signInChallenges.find(challenge.id)).toEqual({ ...challenge, completed: at(10) });
      expect(await repositories.signInChallenges.complete('unknown', at(11), MAX_FAILURES)).toBe(false);
    });

    it('complete() refuses a challenge from its expiry on, and one that failed too often', async () => {
      const expiring = await ofNewUser();
      expect(await repositories.signInChallenges.complete(expiring.id, expiring.expires, MAX_FAILURES)).toBe(false);
      const failing = await ofNewUser();
      for (let failure = 0; failure < MAX_FAILURES - 1; failure += 1) await failOnce(failing.id, failure);
      const atLimit = await ofNewUser();
      for (let failure = 0; failure < MAX_FAILURES; failure += 1) await failOnce(atLimit.id, failure);
      expect(await repositories.signInChallenges.complete(atLimit.id, at(1), MAX_FAILURES)).toBe(false);
      expect(await repositories.signInChallenges.complete(failing.id, at(1), MAX_FAILURES)).toBe(true);
    });

    it(`of ${RACERS} concurrent completions of one challenge, on two instances, exactly one wins: ${ROUNDS} rounds`, async () => {
      const winners: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const challenge = await ofNewUser();
        const results = await Promise.all(
          Array.from({ length: RACERS }, (_, racer) =>
            (racer % 2 === 0 ? repositories : other).signInChallenges.complete(challenge.id, at(1), MAX_FAILURES),
          ),
        );
        winners.push(results.filter(Boolean).length);
      }
      expect(winners).toEqual(Array.from({ length: ROUNDS }, () => 1));
    });

    it('prune() forgets the challenges that expired before the cut-off, and only those', async () => {
      const expired = await created({ expires: at(100) });
      const atCut = await created({ expires: at(200) });
      const live = await created({ expires: at(300) });
      await repositories.signInChallenges.prune(at(200));
      expect(await repositories.signInChallenges.find(expired.id)).toBeNull();
      expect(await repositories.signInChallenges.find(atCut.id)).toEqual(atCut);
      expect(await repositories.signInChallenges.find(live.id)).toEqual(live);
    });

    it("a deleted user's challenges go with it", async () => {
      const challenge = await ofNewUser();
      expect(await repositories.users.delete(challenge.subjectId!, at(1))).toBe(true);
      expect(await repositories.signInChallenges.find(challenge.id)).toBeNull();
      expect(await repositories.signInChallenges.complete(challenge.id, at(2), MAX_FAILURES)).toBe(false);
    });
  });
}
