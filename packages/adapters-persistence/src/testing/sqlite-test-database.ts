import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A database file path in a fresh temporary directory, and how to remove it all afterwards. */
export interface TemporarySqliteFile {
  readonly path: string;
  /** Deletes the directory: the database, its -wal and -shm files and the startup lock. */
  remove(): void;
}

export function createTemporarySqliteFile(): TemporarySqliteFile {
  const directory = mkdtempSync(join(tmpdir(), 'uas-sqlite-'));
  return { path: join(directory, 'test.db'), remove: () => rmSync(directory, { recursive: true, force: true }) };
}
