import type { NewMail } from '../mail/mail-message.ts';
import { addSeconds, type Clock } from '../shared/clock.ts';
import { InvalidActionTokenError } from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { User } from '../users/user.ts';
import type { UserWrite } from '../users/user.repository.ts';
import type { ActionPurpose, ActionToken, ActionTokenLifetimes, PreparedActionToken } from './action-token.ts';
import type { ActionTokenRepository, IssueExtras } from './action-token.repository.ts';
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
   * own write stores them (a sign-up stores its user with them). Only the digest is kept.
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
    const { tokens, clock } = this.deps;
    const now = clock.now();
    const used = await this.lookUp(presented, (digests) => tokens.consume(purpose, digests, now));
    if (!used) throw new InvalidActionTokenError();
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
    const user = await this.lookUp(presented, (digests) =>
      tokens.redeem(purposes, digests, now, (token, current) => change(token, current, now)),
    );
    if (!user) throw new InvalidActionTokenError();
    return user;
  }

  /**
   * Runs `find` with the presented token's digests. The key ring is cached: a token made on
   * another instance just after a rotation there is stored under a secret this one has not read
   * yet. So only a miss pays for reading the ring again, and `find` runs a second time only with
   * the digests under secrets that read brought. InvalidActionTokenError for what cannot be a token.
   */
  private async lookUp<T>(presented: unknown, find: (digests: string[]) => Promise<T | null>): Promise<T | null> {
    if (typeof presented !== 'string' || !TOKEN_FORM.test(presented)) throw new InvalidActionTokenError();
    const { keys } = this.deps;
    const cached = await keys.digests(presented);
    const found = await find(cached);
    if (found) return found;
    const untried = (await keys.reloadedDigests(presented)).filter((digest) => !cached.includes(digest));
    return untried.length === 0 ? null : find(untried);
  }
}
