import type {
  ActionPurpose,
  ActionToken,
  ActionTokenRepository,
  IssueExtras,
  NewMail,
  StoredActionToken,
  User,
  UserWrite,
} from '@uas/domain';
import { insertActionToken, useToken } from './postgres-action-token-statements';
import { appendAuditEvent } from './postgres-audit-trail';
import type { PostgresDb } from './postgres-db';
import { insertMail } from './postgres-mail-queue';
import { lockedUser, writeUser } from './postgres-user-write';

export class PostgresActionTokenRepository implements ActionTokenRepository {
  constructor(private readonly db: PostgresDb) {}

  async issue(token: StoredActionToken, mail: NewMail, { notices = [], audit }: IssueExtras = {}): Promise<void> {
    await this.db.transaction(async (tx) => {
      await insertActionToken(tx, token, mail);
      for (const notice of notices) await insertMail(tx, notice);
      if (audit) await appendAuditEvent(tx, audit);
    });
  }

  /**
   * One UPDATE … RETURNING: a concurrent use waits for the first one's row lock, then finds
   * `used` set and changes nothing, so exactly one use answers the token.
   */
  async consume(purpose: ActionPurpose, digests: readonly string[], now: Date): Promise<ActionToken | null> {
    if (digests.length === 0) return null;
    const [used] = await useToken(this.db, [purpose], digests, now);
    return used ?? null;
  }

  /**
   * One transaction: the use (which locks the token's row, so a concurrent redeem waits and then
   * finds it used), the user's row locked, and its write. A change that throws, or a write the
   * unique email refuses, rolls the use back with it.
   */
  async redeem(
    purposes: readonly ActionPurpose[],
    digests: readonly string[],
    now: Date,
    change: (token: ActionToken, current: User) => UserWrite,
  ): Promise<User | null> {
    if (digests.length === 0) return null;
    return this.db.transaction(async (tx) => {
      const [token] = await useToken(tx, purposes, digests, now);
      const current = token && (await lockedUser(tx, token.userId));
      return token && current ? writeUser(tx, change(token, current)) : null;
    });
  }
}
