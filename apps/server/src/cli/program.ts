import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config';
import { AdminKeyFileError } from '../admin-key-file';
import { CliExit, EXIT } from './exit-codes';
import { adminsCommand } from './admins-commands';
import { auditCommand } from './audit-commands';
import { mailCommand, secretsCommand } from './mail-commands';
import { factorsCommand } from './factors-commands';
import { adminCommand, dbCommand, keysCommand } from './operator-commands';
import { usersCommand } from './users-commands';
import { webhooksCommand } from './webhooks-commands';
import { identityProvidersCommand } from './identity-providers-commands';
import { oauthClientsCommand } from './oauth-clients-commands';

function operatorProgram(): Command {
  const program = new Command('uas')
    .description('operator commands of the user-account service; configured like the server (environment and .env)')
    .showHelpAfterError()
    .exitOverride();
  for (const command of [
    usersCommand(),
    adminCommand(),
    adminsCommand(),
    keysCommand(),
    secretsCommand(),
    factorsCommand(),
    mailCommand(),
    auditCommand(),
    webhooksCommand(),
    identityProvidersCommand(),
    oauthClientsCommand(),
    dbCommand(),
  ]) {
    program.addCommand(command.exitOverride().showHelpAfterError());
  }
  for (const group of program.commands) for (const command of group.commands) command.exitOverride();
  return program;
}

/** Runs the program on `argv` and answers the exit code; messages go to stderr, never a stack trace. */
export async function runOperatorProgram(argv: string[]): Promise<number> {
  try {
    await operatorProgram().parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has printed its message (or the help) already.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    // The reader went away (`uas users export | head`): nothing is wrong with the command.
    if ((error as NodeJS.ErrnoException)?.code === 'EPIPE') return EXIT.ok;
    if (error instanceof CliExit) {
      process.stderr.write(`${error.message}\n`);
      return error.exitCode;
    }
    const known = error instanceof ConfigError || error instanceof AdminKeyFileError;
    process.stderr.write(
      `${known ? (error as Error).message : `The command failed: ${(error as Error)?.message ?? error}`}\n`,
    );
    return EXIT.failed;
  }
}
