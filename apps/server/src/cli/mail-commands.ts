import { Command } from 'commander';
import { SECRET_PURPOSES, type SecretPurpose } from '@uas/domain';
import { CliExit, EXIT } from './exit-codes';
import { withOperator } from './operator';

/** `mail test <address>`: queues a test message, which the server's sender delivers. */
export function mailCommand(): Command {
  const mail = new Command('mail').description('the mail outbox');
  mail
    .command('test')
    .argument('<address>', 'where to send it')
    .description(
      'queue a test message to <address>; a running server with SMTP_URL sends it, or it waits in the outbox',
    )
    .action(async (address: string) => {
      await withOperator(async ({ database, mail, secretKeyRing }) => {
        // The secrets that seal bodies may not exist yet when no server has started on this database.
        await database.withStartupLock(() => secretKeyRing.ensureSecrets());
        const message = await mail.sendTest(address).catch((error: unknown) => {
          if ((error as { code?: string })?.code === 'invalid_attribute') {
            throw new CliExit(EXIT.usage, `${JSON.stringify(address)} is not an email address.`);
          }
          throw error;
        });
        process.stdout.write(`Queued test message ${message.id} to ${message.recipient}.\n`);
      });
    });
  return mail;
}

/** `secrets rotate <purpose>`: seal with a new secret from now on; the old ones still open. */
export function secretsCommand(): Command {
  const secrets = new Command('secrets').description(
    'the secrets that protect data at rest (queued mail bodies, single-use tokens)',
  );
  secrets
    .command('rotate')
    .argument('<purpose>', `one of ${SECRET_PURPOSES.join(', ')}`)
    .description('seal from now on with a new secret of <purpose>; what older secrets sealed still opens')
    .action(async (purpose: string) => {
      if (!(SECRET_PURPOSES as readonly string[]).includes(purpose)) {
        throw new CliExit(EXIT.usage, `The purpose must be one of ${SECRET_PURPOSES.join(', ')}.`);
      }
      await withOperator(async ({ secretKeyRing }) => {
        const secret = await secretKeyRing.rotate(purpose as SecretPurpose);
        process.stdout.write(
          `New ${purpose} secret ${secret.id} is now in use; older ones still open what they sealed.\n`,
        );
      });
    });
  return secrets;
}
