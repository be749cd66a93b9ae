import type {
  ActionPurpose,
  ActionToken,
  ActionTokenRepository,
  AuditRecord,
  NewMail,
  StoredActionToken,
} from '@uas/domain';
import { usableActionToken } from '../shared/conditions';
import { answeredColumns, insertActionToken, useToken } from './postgres-action-token-statements';
import { appendAuditEvent } from './postgres-audit-trail';
import type { PostgresDb } from './postgres-db';
import { insertMail } from './postgres-mail-queue';
import { actionTokens } from './postgres-schema';

export class PostgresActionTokenRepository implements ActionTokenRepository {
  constructor(private readonly db: PostgresDb) {}

  async issue(
    token: StoredActionToken,
    mail: NewMail | null,
    audit?: AuditRecord,
    notices: readonly NewMail[] = [],
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      await insertActionToken(tx, token, mail);
      for (const notice of notices) await insertMail(tx, notice);
      if (audit) await appendAuditEvent(tx, audit);
    });
  }

  async find(purpose: ActionPurpose, digests: readonly string[], now: Date): Promise<ActionToken | null> {
    if (digests.length === 0) return null;
    const [found] = await this.db
      .select(answeredColumns)
      .from(actionTokens)
      .where(usableActionToken(actionTokens, purpose, digests, now));
    return found ?? null;
  }

  /**
   * One UPDATE … RETURNING: a concurrent use waits for the first one's row lock, then finds
   * `used` set and changes nothing, so exactly one use answers the token.
   */
  async consume(purpose: ActionPurpose, digests: readonly string[], now: Date): Promise<ActionToken | null> {
    if (digests.length === 0) return null;
    const [used] = await useToken(this.db, purpose, digests, now);
    return used ?? null;
  }
}
