import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { AdminCredentials } from '@uas/domain';

export class AdminKeyFileError extends Error {}

/**
 * A file changed again within this long of its last change may keep the same change time (Linux
 * stamps files from a clock that ticks every few milliseconds), so its stamp is not trusted: the
 * "racily clean" case of git's index, solved the same way.
 */
const RACY_CHANGE_MS = 2_000;

export interface AdminKeyFile {
  credentials: AdminCredentials;
  /**
   * Device, inode, modification and change times of the file read: any write, rename or copy over
   * it changes one. Nothing in it comes from the content, so storing it reveals nothing about the
   * password. Null when the file changed too recently to tell a later change apart.
   */
  stamp: string | null;
}

/**
 * Reads the admin credentials file, or null when there is none. A file that is not a JSON object
 * with string `email` and `password` stops the start; it is never overwritten.
 */
export async function readAdminKeyFile(path: string, now = Date.now()): Promise<AdminKeyFile | null> {
  let text: string;
  let stamp: string | null;
  try {
    // Stat before reading: a write in between changes the file after its stamp, never before it.
    const stats = await stat(path, { bigint: true });
    stamp =
      now - Number(stats.ctimeMs) < RACY_CHANGE_MS
        ? null
        : `${stats.dev}:${stats.ino}:${stats.mtimeNs}:${stats.ctimeNs}`;
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new AdminKeyFileError(`Cannot read the admin key file at ${path}: ${(error as NodeJS.ErrnoException).code}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AdminKeyFileError(
      `The admin key file at ${path} is not valid JSON; fix it or delete it to get new credentials.`,
    );
  }
  const { email, password, name } = (parsed ?? {}) as Record<string, unknown>;
  if (typeof email !== 'string' || typeof password !== 'string' || (name !== undefined && typeof name !== 'string')) {
    throw new AdminKeyFileError(
      `The admin key file at ${path} must hold a JSON object with string "email" and "password" (and optionally "name").`,
    );
  }
  return { credentials: name === undefined ? { email, password } : { email, password, name }, stamp };
}

/** New credentials with a random 192-bit password, written with mode 0600 before they are used. */
export async function createAdminKeyFile(path: string, email: string): Promise<AdminCredentials> {
  const credentials = { email, password: randomBytes(24).toString('base64url') };
  await writeAdminKeyFile(path, credentials);
  return credentials;
}

/** Writes (or replaces) the key file with mode 0600 in a 0700 directory. */
export async function writeAdminKeyFile(path: string, credentials: AdminCredentials): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  // Write then rename, so a crash never leaves a half-written file that would stop the next start.
  // A random name, not the pid: in a container node is always PID 1, so a temporary file left by a
  // crash would bear the next start's name too and stop every start after it.
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  await rename(temporary, path);
}
