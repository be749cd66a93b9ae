import type {
  ActionPurpose,
  ActionToken,
  ActionTokenRepository,
  AuditRecord,
  NewMail,
  StoredActionToken,
} from '@uas/domain';
import { usableActionToken } from '../shared/conditions';
import { answeredColumns, insertActionToken, useToken } from './sqlite-action-token-statements';
import { appendAuditEvent } from './sqlite-audit-trail';
import type { SqliteDb } from './sqlite-db';
import { unsyncedWrite } from './sqlite-unsynced-write';
import { insertMail } from './sqlite-mail-queue';
import { actionTokens } from './sqlite-schema';

export class SqliteActionTokenRepository implements ActionTokenRepository {
  constructor(private readonly db: SqliteDb) {}

  /**
   * With its message, not flushed on its own (see unsyncedWrite): lost on a power cut, with the
   * message, before it was sent. A bare token (`mail` null) is shown to an admin at once: flushed.
   */
  async issue(
    token: StoredActionToken,
    mail: NewMail | null,
    audit?: AuditRecord,
    notices: readonly NewMail[] = [],
  ): Promise<void> {
    const write = () =>
      this.db.transaction(
        (tx) => {
          insertActionToken(tx, token, mail);
          for (const notice of notices) insertMail(tx, notice);
          if (audit) appendAuditEvent(tx, audit);
        },
        { behavior: 'immediate' },
      );
    if (mail) unsyncedWrite(this.db, write);
    else write();
  }

  async find(purpose: ActionPurpose, digests: readonly string[], now: Date): Promise<ActionToken | null> {
    if (digests.length === 0) return null;
    return (
      this.db
        .select(answeredColumns)
        .from(actionTokens)
        .where(usableActionToken(actionTokens, purpose, digests, now))
        .get() ?? null
    );
  }

  /** One UPDATE … RETURNING: SQLite runs one writer at a time, so one use alone changes the row. */
  async consume(purpose: ActionPurpose, digests: readonly string[], now: Date): Promise<ActionToken | null> {
    if (digests.length === 0) return null;
    return useToken(this.db, purpose, digests, now).get() ?? null;
  }
}
