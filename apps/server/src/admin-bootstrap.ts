import { EmailTakenError, normalizeEmail, ValidationError, type AdminService } from '@uas/domain';
import type { Logger } from '@uas/domain';
import { AdminKeyFileError, createAdminKeyFile, readAdminKeyFile } from './admin-key-file';

/**
 * Makes the admin match the key file at every start: the first start (no file) creates the
 * admin with a random password and writes the file; an edited file resets the credentials. The
 * file's stamp spares the bcrypt check of its password on a start where the file is unchanged.
 */
export async function bootstrapAdmin(
  admins: AdminService,
  keyPath: string,
  defaultEmail: string,
  logger: Logger,
): Promise<void> {
  const fromFile = await readAdminKeyFile(keyPath);
  const { credentials, stamp } = fromFile ?? {
    credentials: await createAdminKeyFile(keyPath, defaultEmail),
    stamp: null,
  };
  try {
    await admins.applyCredentials(credentials, stamp);
  } catch (error) {
    if (error instanceof EmailTakenError) {
      // Another administrator (an invited one) has the address: say which file and which address,
      // never the password beside it.
      throw new AdminKeyFileError(
        `The admin key file at ${keyPath} (ADMIN_KEY_PATH) gives the email ${normalizeEmail(credentials.email)}, which is another administrator's address: put another address in the file, or remove that administrator first.`,
      );
    }
    if (!(error instanceof ValidationError)) throw error;
    const problems = error.issues.map((issue) => issue.detail).join('; ');
    throw new AdminKeyFileError(`The admin key file at ${keyPath} holds unusable credentials: ${problems}.`);
  }
  logger.info(
    fromFile ? 'admin credentials applied from the key file' : 'admin created; credentials written to the key file',
    {
      path: keyPath,
    },
  );
}
