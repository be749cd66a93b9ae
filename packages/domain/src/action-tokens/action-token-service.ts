import type { NewMail } from '../mail/mail-message.ts';
import { addSeconds, type Clock } from '../shared/clock.ts';
import { InvalidActionTokenError } from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { User } from '../users/user.ts';
import type { UserWrite } from '../users/user.repository.ts';
import type { ActionPurpose, ActionToken, ActionTokenLifetimes, PreparedActionToken } from './action-token.ts';
import type { ActionTokenRepository, IssueExtras } from './action-token.repository.ts';
import type { TokenKeys } from './token-keys.ts';

import { TOKEN_FORM } from './action-token-form.ts';

export interface ActionTokenServiceDeps {
  tokens: ActionTokenRepository;
  keys: TokenKeys;
  clock: Clock;
  ids: IdGenerator;
  lifetimes: ActionTokenLifetimes;
}

/** Single-use tokens: issued with the message that carries them, used once. */
export class ActionTokenService {
  constructor(private readonly deps: ActionTokenServiceDeps) {}

  /**
   * Makes a token of `purpose` for the user, has `compose` write the message that carries it, and
   * stores both, with `extras`, in one transaction. The token exists nowhere else: not in the store, not in a log.
   */
  async issue(
    purpose: ActionPurpose,
    owner: { userId: string; email?: string | null },
    compose: (token: string) => Promise<NewMail>,
    extras?: IssueExtras,
  ): Promise<NewMail> {
    const { token, mail } = await this.prepare(purpose, owner, compose);
    await this.deps.tokens.issue(token, mail, extras);
    return mail;
  }

  /**
   * Makes a token of `purpose` and the message that carries it, storing nothing: for a flow whose
   * own write stores them (a sign-up stores its user with them, an invitation its user and
   * invitation). Only the digest is kept.
   */
  async prepare(
    purpose: ActionPurpose,
    owner: { userId: string; email?: string | null },
    compose: (token: string) => Promise<NewMail>,
  ): Promise<PreparedActionToken> {
    const { keys, clock, ids, lifetimes } = this.deps;
    const token = keys.generate();
    const created = clock.now();
    const mail = await compose(token);
    return {
      token: {
        id: ids.next(),
        purpose,
        userId: owner.userId,
        email: owner.email ?? null,
        created,
        expires: addSeconds(created, lifetimes[purpose]),
        used: null,
        digest: await keys.digest(token),
      },
      mail,
    };
  }

  /** Uses a presented token of `purpose`: InvalidActionTokenError when it is wrong, used, voided or expired. */
  async use(purpose: ActionPurpose, presented: unknown): Promise<ActionToken> {
    return this.useWith(presented, (digests, now) => this.deps.tokens.consume(purpose, digests, now));
  }

  /**
   * Uses a presented token through `consume`, a write of the caller's own port that consumes the
   * token (found by any of `digests`, usable at `now`) in the transaction of the change it allows,
   * answering null when there is none. InvalidActionTokenError for null, as for any wrong token.
   */
  async useWith<T>(
    presented: unknown,
    consume: (digests: readonly string[], now: Date) => Promise<T | null>,
  ): Promise<T> {
    const digests = await this.digestsOf(presented);
    const used = await consume(digests, this.deps.clock.now());
    if (used === null) throw new InvalidActionTokenError();
    return used;
  }

  /**
   * Uses a presented token of one of `purposes` and writes what `change` decides for its user, in
   * one transaction (see ActionTokenRepository.redeem): a refused change leaves the token usable.
   * InvalidActionTokenError when it is wrong, used, voided or expired.
   */
  async redeem(
    purposes: readonly ActionPurpose[],
    presented: unknown,
    change: (token: ActionToken, current: User, now: Date) => UserWrite,
  ): Promise<User> {
    const { tokens, clock } = this.deps;
    const now = clock.now();
    const digests = await this.digestsOf(presented);
    const user = await tokens.redeem(purposes, digests, now, (token, current) => change(token, current, now));
    if (!user) throw new InvalidActionTokenError();
    return user;
  }

  /** The digests a presented token is looked up by: none for what cannot be a token. */
  private async digestsOf(presented: unknown): Promise<string[]> {
    if (typeof presented !== 'string' || !TOKEN_FORM.test(presented)) throw new InvalidActionTokenError();
    return this.deps.keys.digests(presented);
  }
}
