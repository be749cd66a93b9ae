import { randomBytes } from 'node:crypto';
import { Command } from 'commander';
import { readAdminKeyFile, writeAdminKeyFile } from '../admin-key-file';
import { withOperator } from './operator';

/** `admin reset-password`: new random credentials, written to the key file as the first start does. */
export function adminCommand(): Command {
  const admin = new Command('admin').description('the admin account');
  admin
    .command('reset-password')
    .description('give the admin a new random password, written to ADMIN_KEY_PATH (0600); every admin session ends')
    .action(async () => {
      await withOperator(async ({ config, database, useCases }) => {
        const file = (await readAdminKeyFile(config.adminKeyPath))?.credentials;
        const stored = await database.repositories.admins.findFirst();
        const credentials = {
          email: file?.email ?? stored?.email ?? config.adminEmail,
          password: randomBytes(24).toString('base64url'),
          ...(file?.name === undefined ? {} : { name: file.name }),
        };
        // The file first: were the database write to fail, the next start applies the file.
        await writeAdminKeyFile(config.adminKeyPath, credentials);
        await useCases.admins.applyCredentials(credentials);
        process.stdout.write(`New admin credentials for ${credentials.email} are in ${config.adminKeyPath}.\n`);
      });
    });
  return admin;
}

/** `keys rotate [--now]`: what `pnpm rotate-keys` does. */
export function keysCommand(): Command {
  const keys = new Command('keys').description('the keys that sign tokens');
  keys
    .command('rotate')
    .description(
      'publish a new signing key now and sign new tokens with it once every cached JWKS lists it; tokens signed with the previous key stay valid until they expire',
    )
    .option(
      '--now',
      'sign with the new key at once (a compromised key): verifiers that cached the JWKS refuse new tokens until they fetch it again',
    )
    .action(async ({ now }: { now?: boolean }) => {
      await withOperator(async ({ database, keyRing, companionKeys }) => {
        const key = await keyRing.rotate(now ? 'immediate' : 'scheduled');
        // The new key's RS256 companion, and the older ones' retirement, under the lock instances make them under.
        await database.withStartupLock(async () => companionKeys.sync(await keyRing.held()));
        const signs = now
          ? 'signs new tokens from now on; a verifier holding a cached JWKS refuses them until it fetches the JWKS again'
          : `is published now and signs new tokens from ${key.activates.toISOString()} (in ${keyRing.activationLeadSeconds} s, once every cached JWKS lists it)`;
        process.stdout.write(
          `New signing key ${key.kid} (${key.algorithm}) ${signs}; previous keys verify until their tokens expire.\n`,
        );
      });
    });
  return keys;
}

export function dbCommand(): Command {
  const db = new Command('db').description('the database schema');
  db.command('migrate')
    .description('apply the migrations not applied yet (the server also does this at start)')
    .action(async () => {
      await withOperator(async ({ database }) => {
        const { applied } = await database.migrationStatus();
        process.stdout.write(`Migrations applied: ${applied} in all; the database is up to date.\n`);
      });
    });
  db.command('status')
    .description('show which migrations are applied and which are pending; changes nothing')
    .action(async () => {
      await withOperator(
        async ({ config, database }) => {
          const { applied, pending } = await database.migrationStatus();
          process.stdout.write(`${JSON.stringify({ dialect: config.database.dialect, applied, pending }, null, 2)}\n`);
        },
        { migrate: false },
      );
    });
  return db;
}
