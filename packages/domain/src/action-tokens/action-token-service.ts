import type { NewMail } from '../mail/mail-message.ts';
import { addSeconds, type Clock } from '../shared/clock.ts';
import { InvalidActionTokenError } from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { ActionPurpose, ActionToken, ActionTokenLifetimes } from './action-token.ts';
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
    const { tokens, keys, clock, ids, lifetimes } = this.deps;
    const token = keys.generate();
    const created = clock.now();
    const mail = await compose(token);
    await tokens.issue(
      {
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
    );
    return mail;
  }

  /** Uses a presented token of `purpose`: InvalidActionTokenError when it is wrong, used, voided or expired. */
  async use(purpose: ActionPurpose, presented: unknown): Promise<ActionToken> {
    if (typeof presented !== 'string' || !TOKEN_FORM.test(presented)) throw new InvalidActionTokenError();
    const { tokens, keys, clock } = this.deps;
    const used = await tokens.consume(purpose, await keys.digests(presented), clock.now());
    if (!used) throw new InvalidActionTokenError();
    return used;
  }
}
