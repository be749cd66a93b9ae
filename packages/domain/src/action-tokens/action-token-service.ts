import type { NewMail } from '../mail/mail-message.ts';
import { addSeconds, type Clock } from '../shared/clock.ts';
import { InvalidActionTokenError } from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { AuditRecord } from '../audit/audit-event.ts';
import type {
  ActionPurpose,
  ActionToken,
  ActionTokenLifetimes,
  PreparedActionToken,
  StoredActionToken,
} from './action-token.ts';
import type { ActionTokenRepository } from './action-token.repository.ts';
import type { TokenKeys } from './token-keys.ts';

import { TOKEN_FORM } from './action-token-form.ts';

export interface ActionTokenServiceDeps {
  tokens: ActionTokenRepository;
  keys: TokenKeys;
  clock: Clock;
  ids: IdGenerator;
  lifetimes: ActionTokenLifetimes;
}

/** Whom a token acts for: the account, and the address it is bound to when that matters. */
export interface TokenOwner {
  userId: string;
  email?: string | null;
}

/** Single-use tokens: issued with the message that carries them, used once. */
export class ActionTokenService {
  constructor(private readonly deps: ActionTokenServiceDeps) {}

  /**
   * Makes a token of `purpose` for the user, has `compose` write the message that carries it, and
   * stores both in one transaction. The token exists nowhere else: not in the store, not in a log.
   */
  async issue(
    purpose: ActionPurpose,
    owner: TokenOwner,
    compose: (token: string) => Promise<NewMail>,
    audit?: AuditRecord,
    notices?: readonly NewMail[],
  ): Promise<NewMail> {
    const { token, mail } = await this.prepare(purpose, owner, compose);
    await this.deps.tokens.issue(token, mail, audit, notices);
    return mail;
  }

  /**
   * Makes a token of `purpose` and has `compose` write the message that carries it, storing
   * nothing: for a write port that stores both with a change of its own (a resolved request).
   */
  async prepare(
    purpose: ActionPurpose,
    owner: TokenOwner,
    compose: (token: string) => Promise<NewMail>,
  ): Promise<PreparedActionToken> {
    const token = this.deps.keys.generate();
    const mail = await compose(token);
    return { token: await this.stored(purpose, owner, token), mail };
  }

  /**
   * Makes and stores a token of `purpose` that no message carries, with `audit` in the same
   * transaction, and answers the token itself: for a link an admin hands over (support on the
   * phone). The caller must show it to no log or store.
   */
  async issueBare(purpose: ActionPurpose, owner: TokenOwner, audit: AuditRecord): Promise<string> {
    const token = this.deps.keys.generate();
    await this.deps.tokens.issue(await this.stored(purpose, owner, token), null, audit);
    return token;
  }

  /** The record `token` is stored as: its digest, never itself. */
  private async stored(purpose: ActionPurpose, owner: TokenOwner, token: string): Promise<StoredActionToken> {
    const { keys, clock, ids, lifetimes } = this.deps;
    const created = clock.now();
    return {
      id: ids.next(),
      purpose,
      userId: owner.userId,
      email: owner.email ?? null,
      created,
      expires: addSeconds(created, lifetimes[purpose]),
      used: null,
      digest: await keys.digest(token),
    };
  }

  /** Uses a presented token of `purpose`: InvalidActionTokenError when it is wrong, used, voided or expired. */
  async use(purpose: ActionPurpose, presented: unknown): Promise<ActionToken> {
    const { tokens, keys, clock } = this.deps;
    const now = clock.now();
    // The key ring is cached: a token made on another instance just after a rotation there is
    // stored under a secret this one has not read yet. So only a miss pays for reading the ring
    // again, and the second look is only under the digests that read brought.
    const cached = await keys.digests(checked(presented));
    const used = await tokens.consume(purpose, cached, now);
    if (used) return used;
    const untried = (await keys.reloadedDigests(checked(presented))).filter((digest) => !cached.includes(digest));
    const usedNow = untried.length > 0 ? await tokens.consume(purpose, untried, now) : null;
    if (!usedNow) throw new InvalidActionTokenError();
    return usedNow;
  }

  /**
   * The digests a presented token is looked up by (see TokenKeys.reloadedDigests), from the ring
   * read afresh: the caller may look up more than once with them (peek, then redeem), so they
   * must already hold a secret another instance has just rotated in. One small read per link a
   * user follows. InvalidActionTokenError for anything that cannot be a token, before the store
   * is asked.
   */
  async digestsOf(presented: unknown): Promise<string[]> {
    return this.deps.keys.reloadedDigests(checked(presented));
  }

  /** The usable token of `purpose` under one of `digests`, without using it; InvalidActionTokenError when none is. */
  async peek(purpose: ActionPurpose, digests: readonly string[]): Promise<ActionToken> {
    const found = await this.deps.tokens.find(purpose, digests, this.deps.clock.now());
    if (!found) throw new InvalidActionTokenError();
    return found;
  }
}

/** The presented token, when it can be one; InvalidActionTokenError otherwise. */
function checked(presented: unknown): string {
  if (typeof presented !== 'string' || !TOKEN_FORM.test(presented)) throw new InvalidActionTokenError();
  return presented;
}
