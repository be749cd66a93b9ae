import { Command } from 'commander';
import { ADMIN_ROLES, EmailTakenError, ValidationError, type AdminRole } from '@uas/domain';
import { CliExit, EXIT } from './exit-codes';
import { withOperator } from './operator';

/** `admins list` and `admins invite`: the administrators, as an owner manages them in the panel. */
export function adminsCommand(): Command {
  const admins = new Command('admins').description('the administrators and their roles');
  admins
    .command('list')
    .description('print every administrator, earliest (the key file’s) first, one JSON object a line')
    .action(async () => {
      await withOperator(async ({ useCases }) => {
        for (const admin of await useCases.adminAccounts.list()) {
          const { id, email, name, role, created } = admin;
          process.stdout.write(`${JSON.stringify({ id, email, name, role, created })}\n`);
        }
      });
    });
  admins
    .command('invite')
    .argument('<email>', 'the address to invite')
    .requiredOption('--role <role>', `one of ${ADMIN_ROLES.join(', ')}`)
    .option('--name <name>', 'the new administrator’s name')
    .description(
      'invite <email> to become an administrator: a link (48 hours, single use) is mailed, or waits in the outbox',
    )
    .action(async (email: string, options: { role: string; name?: string }) => {
      await withOperator(async ({ database, secretKeyRing, useCases }) => {
        // The secrets that key tokens and seal bodies may not exist yet when no server has started.
        await database.withStartupLock(() => secretKeyRing.ensureSecrets());
        try {
          const invitation = await useCases.adminAccounts.invite({
            email,
            role: options.role as AdminRole,
            ...(options.name === undefined ? {} : { name: options.name }),
          });
          const { id, role, expires } = invitation;
          process.stdout.write(`${JSON.stringify({ id, email: invitation.email, role, expires }, null, 2)}\n`);
        } catch (error) {
          if (error instanceof ValidationError) {
            throw new CliExit(EXIT.usage, error.issues.map((issue) => issue.detail).join('; '));
          }
          if (error instanceof EmailTakenError) throw new CliExit(EXIT.conflict, error.message);
          throw error;
        }
      });
    });
  return admins;
}
