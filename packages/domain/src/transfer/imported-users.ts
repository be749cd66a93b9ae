import type { AuditChanges, AuditRecord } from '../audit/audit-event.ts';
import type { JsonValue } from '../shared/json.ts';
import type { User } from '../users/user.ts';

/** A user an import batch wrote, as its audit event names it: the id and the version it made. */
export interface ImportedUser {
  readonly id: string;
  readonly version: number;
}

const named = (users: readonly User[]): JsonValue => users.map(({ id, version }) => ({ id, version }));

/**
 * The users a batch created and updated, named in its `users.imported` event (never their
 * attributes: a batch holds up to MAX_IMPORT_BATCH_SIZE of them), so each becomes a webhook event.
 */
export const importedUsersChanges = (inserts: readonly User[], updates: readonly User[]): AuditChanges => ({
  created_users: { before: null, after: named(inserts) },
  updated_users: { before: null, after: named(updates) },
});

function usersIn(value: JsonValue | undefined): ImportedUser[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) =>
    entry !== null && typeof entry === 'object' && !Array.isArray(entry) && typeof entry.id === 'string'
      ? [{ id: entry.id, version: typeof entry.version === 'number' ? entry.version : 1 }]
      : [],
  );
}

/** The users an import event names, in the batch's order: created, then updated. */
export function importedUsersOf(record: Pick<AuditRecord, 'changes'>): {
  created: ImportedUser[];
  updated: ImportedUser[];
} {
  return {
    created: usersIn(record.changes?.created_users?.after),
    updated: usersIn(record.changes?.updated_users?.after),
  };
}
