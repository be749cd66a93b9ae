import type { NewMail } from '../mail/mail-message.ts';
import { addSeconds, type Clock } from '../shared/clock.ts';
import { InvalidActionTokenError } from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { ActionPurpose, ActionToken, ActionTokenLifetimes, StoredActionToken } from './action-token.ts';
import type { ActionTokenRepository } from './action-token.repository.ts';
import type { TokenKeys } from './token-keys.ts';

export interface ActionTokenServiceDeps {
  tokens: ActionTokenRepository;
  keys: TokenKeys;
  clock: Clock;
  ids: IdGenerator;
  lifetimes: ActionTokenLifetimes;
}

/**
 * What a presented token may look like: URL-safe text of a sane length. Anything else is refused
 * before the store is asked, as any wrong token is.
 */
const TOKEN_FORM = /^[A-Za-z0-9_-]{16,128}$/;

/** Single-use tokens: issued with the message that carries them, used once. */
export class ActionTokenService {
  constructor(private readonly deps: ActionTokenServiceDeps) {}

  /**
   * Makes a token of `purpose` for the user, has `compose` write the message that carries it, and
   * stores both in one transaction. The token exists nowhere else: not in the store, not in a log.
   */
  async issue(
    purpose: ActionPurpose,
    owner: { userId: string; email?: string | null },
    compose: (token: string) => Promise<NewMail>,
  ): Promise<NewMail> {
    const { token, mail } = await this.prepare(purpose, owner, compose);
    await this.deps.tokens.issue(token, mail);
    return mail;
  }

  /**
   * What issue() stores, made but not stored: for a flow whose own port writes the token and its
   * message in the transaction of a larger change (an invitation and its user, say).
   */
  async prepare(
    purpose: ActionPurpose,
    owner: { userId: string; email?: string | null },
    compose: (token: string) => Promise<NewMail>,
  ): Promise<{ token: StoredActionToken; mail: NewMail }> {
    const { keys, clock, ids, lifetimes } = this.deps;
    const token = keys.generate();
    const created = clock.now();
    const mail = await compose(token);
    return {
      mail,
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
    if (typeof presented !== 'string' || !TOKEN_FORM.test(presented)) throw new InvalidActionTokenError();
    const { keys, clock } = this.deps;
    const used = await consume(await keys.digests(presented), clock.now());
    if (used === null) throw new InvalidActionTokenError();
    return used;
  }
}
