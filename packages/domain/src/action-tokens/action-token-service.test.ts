import { beforeEach, describe, expect, it } from '../testing/test-api.ts';
import { InvalidActionTokenError } from '../shared/errors.ts';
import { buildDomain, rejectionOf, type Domain } from '../testing/domain-fixture.ts';
import { sampleMail } from '../testing/mail-queue.contract.ts';
import { TEST_TOKEN_LIFETIMES } from '../testing/in-memory-action-tokens.ts';
import type { User } from '../users/user.ts';
const INVALID_ACTION_TOKEN = new InvalidActionTokenError().message;

describe('ActionTokenService', () => {
  let domain: Domain;
  let user: User;
  beforeEach(async () => {
    domain = buildDomain();
    user = await domain.createUser();
  });

  /** Issues a token of `purpose` for `user`, answering the token the message would carry. */
  async function issue(purpose: 'verification' | 'recovery' = 'verification', owner = user): Promise<string> {
    let carried = '';
    await domain.actionTokens.issue(purpose, { userId: owner.id, email: owner.email }, async (token) => {
      carried = token;
      return sampleMail(1);
    });
    return carried;
  }

  const refused = async (purpose: 'verification' | 'recovery', token: unknown) =>
    (await rejectionOf(domain.actionTokens.use(purpose, token), InvalidActionTokenError)).message;

  it('issue() queues the message that carries the token, in the same write', async () => {
    await issue();
    expect(await domain.repositories.mail.findById(sampleMail(1).id)).not.toBeNull();
  });

  it('use() answers the token once: owner, purpose, address and when it was used', async () => {
    const token = await issue();
    domain.clock.advance(60);
    expect(await domain.actionTokens.use('verification', token)).toMatchObject({
      purpose: 'verification',
      userId: user.id,
      email: user.email,
      used: domain.clock.now(),
    });
    expect(await refused('verification', token)).toBe(INVALID_ACTION_TOKEN);
  });

  it('gives a wrong, malformed, used, expired or other-purpose token one and the same answer', async () => {
    const answers = [
      await refused('verification', 'test-token-99999999'),
      await refused('verification', 'short'),
      await refused('verification', 'x'.repeat(129)),
      await refused('verification', `bad\u0000token-of-some-length`),
      await refused('verification', 42),
      await refused('recovery', await issue('verification')),
    ];
    const used = await issue();
    await domain.actionTokens.use('verification', used);
    answers.push(await refused('verification', used));
    const expiring = await issue('recovery');
    domain.clock.advance(TEST_TOKEN_LIFETIMES.recovery);
    answers.push(await refused('recovery', expiring));
    expect(new Set(answers)).toEqual(new Set([INVALID_ACTION_TOKEN]));
  });

  it('lasts as long as its purpose says: usable until the last second', async () => {
    const token = await issue('recovery');
    domain.clock.advance(TEST_TOKEN_LIFETIMES.recovery - 1);
    expect(await domain.actionTokens.use('recovery', token)).toMatchObject({ userId: user.id });
  });

  it('stores the token under its digest, never as itself', async () => {
    const token = await issue();
    const now = domain.clock.now();
    expect(await domain.repositories.tokens.consume('verification', [token], now)).toBeNull();
    const digest = await domain.tokenKeys.digest(token);
    expect(digest).not.toBe(token);
    expect(await domain.repositories.tokens.consume('verification', [digest], now)).toMatchObject({ userId: user.id });
  });

  it('finds a token made before a rotation of the key', async () => {
    const token = await issue();
    domain.tokenKeys.rotate();
    expect(await domain.actionTokens.use('verification', token)).toMatchObject({ userId: user.id });
  });

  it("a new password or email voids the user's outstanding tokens; another change does not", async () => {
    const [forPassword, forEmail, kept] = [await issue(), await issue('recovery'), await issue()];
    await domain.users.update(user.id, { name: 'Renamed' });
    expect(await domain.actionTokens.use('verification', kept)).toMatchObject({ userId: user.id });
    await domain.users.update(user.id, { password: 'a brand new password' });
    expect(await refused('verification', forPassword)).toBe(INVALID_ACTION_TOKEN);
    const again = await issue('recovery');
    await domain.users.update(user.id, { email: 'moved@example.com' });
    expect(await refused('recovery', again)).toBe(INVALID_ACTION_TOKEN);
    expect(await refused('recovery', forEmail)).toBe(INVALID_ACTION_TOKEN);
  });

  it('deactivating the account voids its outstanding tokens; reactivating does not bring them back', async () => {
    const token = await issue('recovery');
    await domain.users.update(user.id, { active: 0 });
    await domain.users.update(user.id, { active: 1 });
    expect(await refused('recovery', token)).toBe(INVALID_ACTION_TOKEN);
  });

  it('of concurrent uses of one token exactly one succeeds, round after round', async () => {
    const winners: number[] = [];
    for (let round = 0; round < 20; round += 1) {
      const token = await issue();
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, () => domain.actionTokens.use('verification', token)),
      );
      winners.push(results.filter((result) => result.status === 'fulfilled').length);
    }
    expect(winners).toEqual(Array.from({ length: 20 }, () => 1));
  });
});
