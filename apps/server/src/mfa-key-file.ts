import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

const KEY_BYTES = 32;

/** Where the generated MFA key is kept when MFA_ENCRYPTION_KEY is not set: beside the admin key file. */
const mfaKeyPathBeside = (adminKeyPath: string): string => join(dirname(adminKeyPath), 'mfa.key');

/**
 * The MFA keys: MFA_ENCRYPTION_KEY's when set (the first wraps), else the one in the `mfa.key`
 * file, created with 32 random bytes (mode 0600, in a 0700 directory) the first time it is asked
 * for. Read once: the function it returns answers the same keys every time.
 */
export function mfaKeysFrom(configured: readonly string[], adminKeyPath: string): () => Promise<readonly Buffer[]> {
  let keys: Promise<readonly Buffer[]> | null = null;
  return () => {
    keys ??=
      configured.length > 0
        ? Promise.resolve(configured.map((key) => Buffer.from(key, 'base64url')))
        : readOrCreateMfaKeyFile(mfaKeyPathBeside(adminKeyPath)).then((key) => [key]);
    return keys;
  };
}

async function readOrCreateMfaKeyFile(path: string): Promise<Buffer> {
  try {
    return parse(path, await readFile(path, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const key = randomBytes(KEY_BYTES).toString('base64url');
  // Written whole under a temporary name, then linked into place: the link fails when an instance
  // starting at the same moment was first, and then its key is read; nobody reads half a file.
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, `${key}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(temporary, path);
    return Buffer.from(key, 'base64url');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return parse(path, await readFile(path, 'utf8'));
  } finally {
    await rm(temporary, { force: true });
  }
}

function parse(path: string, text: string): Buffer {
  const key = text.trim();
  if (!/^[A-Za-z0-9_-]{43}$/.test(key)) {
    throw new Error(`The MFA key file at ${path} must hold 32 bytes as base64url; restore it from a backup.`);
  }
  return Buffer.from(key, 'base64url');
}
