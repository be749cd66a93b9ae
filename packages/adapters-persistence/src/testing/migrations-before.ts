import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A copy of a dialect's committed migrations as they were before the one named `tag` (e.g.
 * `email_verified`): for tests of what a migration does to rows stored before it.
 */
export function migrationsBefore(dialect: 'sqlite' | 'postgres', tag: string): { folder: string; remove(): void } {
  const folder = mkdtempSync(join(tmpdir(), 'uas-migrations-'));
  cpSync(fileURLToPath(new URL(`../../migrations/${dialect}`, import.meta.url)), folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((entry) => entry.tag.endsWith(`_${tag}`));
  if (cut < 0) throw new Error(`No ${dialect} migration is named ${tag}.`);
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, cut) }));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/** A user row as the migrations before `email_verified` stored one, created at `created` (epoch ms). */
export const USER_BEFORE_EMAIL_VERIFIED = {
  id: '00000000-0000-4000-8000-00000000beef',
  created: 1_700_000_000_123,
};

/** A session row as the migrations before `session_amr` stored one. */
export const SESSION_BEFORE_AMR = {
  id: '00000000-0000-4000-8000-0000000005e5',
  subjectId: '00000000-0000-4000-8000-00000000beef',
  created: 1_700_000_000_123,
};
