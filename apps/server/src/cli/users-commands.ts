import { randomBytes } from 'node:crypto';
import { Command, Option } from 'commander';
import {
  CONFLICT_POLICIES,
  EmailTakenError,
  isJsonObject,
  MAX_IMPORT_BATCH_SIZE,
  normalizeEmail,
  ValidationError,
  type ConflictPolicy,
  type ImportReport,
  type ShownUser,
  type UserRepository,
} from '@uas/domain';
import { CliExit, EXIT } from './exit-codes';
import { EXPORT_FORMATS, writeExport, type ExportFormat } from './export-output';
import { IMPORT_FORMATS, openImportInput, type ImportFormat } from './import-input';
import { withOperator } from './operator';
import { createProgress } from './progress';

const positive = (value: string) => {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 10_000)
    throw new CliExit(EXIT.usage, `not a whole number from 1 to 10000: ${value}`);
  return Number(value);
};

/** A batch's audit event names each user it wrote (for their webhook events): so many at most. */
const batchSize = (value: string) => {
  const size = positive(value);
  if (size > MAX_IMPORT_BATCH_SIZE) {
    throw new CliExit(EXIT.usage, `a batch writes at most ${MAX_IMPORT_BATCH_SIZE} records: ${value}`);
  }
  return size;
};

function jsonObjectOption(name: string) {
  return (value: string) => {
    try {
      const parsed: unknown = JSON.parse(value);
      if (isJsonObject(parsed)) return parsed;
    } catch {
      // answered below
    }
    throw new CliExit(EXIT.usage, `--${name} must be a JSON object`);
  };
}

/** The final report: counts on stdout as JSON (for scripts), the verdict as the exit code. */
function finish(report: ImportReport): void {
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  if (report.failure)
    throw new CliExit(EXIT.conflict, `Stopped at line ${report.failure.line}: ${report.failure.reason}.`);
  if (report.rejected > 0) process.exitCode = EXIT.rejected;
}

export function usersCommand(): Command {
  const users = new Command('users').description('move users in and out, create them, ban and unban them');

  users
    .command('import')
    .description(
      'import users from NDJSON, a JSON array or CSV; each record has name, email, metadata, app, active, and password, password_hash or neither (no password until one is set)',
    )
    .argument('<file>', 'the input file, or - for stdin')
    .addOption(new Option('--format <format>', 'the input format (detected when absent)').choices(IMPORT_FORMATS))
    .addOption(
      new Option('--on-conflict <policy>', 'what to do with a user that exists already')
        .choices(CONFLICT_POLICIES)
        .default('skip'),
    )
    .option('--dry-run', 'check every record (conflicts included) and write nothing', false)
    .option('--batch-size <n>', `records written per transaction (at most ${MAX_IMPORT_BATCH_SIZE})`, batchSize, 1000)
    .option('--quiet', 'no progress on stderr', false)
    .action(
      async (
        file: string,
        options: {
          format?: ImportFormat;
          onConflict: ConflictPolicy;
          dryRun: boolean;
          batchSize: number;
          quiet: boolean;
        },
      ) => {
        await withOperator(async ({ useCases }) => {
          const input = await openImportInput(file, options.format);
          const progress = createProgress(options.dryRun ? 'checked' : 'imported', process.stderr, options.quiet);
          const report = await useCases.transfer.import(input.records, {
            onConflict: options.onConflict,
            dryRun: options.dryRun,
            batchSize: options.batchSize,
            onRejected: ({ line, reason }) => process.stderr.write(`line ${line}: ${reason}\n`),
            onProgress: (so) => progress.update(so.created + so.updated + so.skipped + so.rejected, input.fraction()),
          });
          progress.done(report.created + report.updated + report.skipped + report.rejected);
          finish(report);
        });
      },
    );

  users
    .command('export')
    .description('write every user (or those whose email contains a term) as NDJSON or CSV, in creation order')
    .addOption(new Option('--format <format>', 'the output format').choices(EXPORT_FORMATS).default('ndjson'))
    .option('--with-password-hashes', 'include password_hash, so an import elsewhere keeps every password', false)
    .option('--search <term>', 'only users whose email contains the term (a literal substring)')
    .option('-o, --output <file>', 'write to a file (mode 0600) instead of stdout', '-')
    .option('--quiet', 'no progress on stderr', false)
    .action(
      async (options: {
        format: ExportFormat;
        withPasswordHashes: boolean;
        search?: string;
        output: string;
        quiet: boolean;
      }) => {
        await withOperator(async ({ useCases }) => {
          const total = (await useCases.users.list({ page: 1, size: 1, emailContains: options.search })).total;
          const progress = createProgress('exported', process.stderr, options.quiet);
          const count = await writeExport(
            useCases.transfer.export({ emailContains: options.search, withPasswordHashes: options.withPasswordHashes }),
            {
              format: options.format,
              withPasswordHashes: options.withPasswordHashes,
              output: options.output,
              onUser: (done) => progress.update(done, total ? done / total : undefined),
            },
          );
          progress.done(count);
        });
      },
    );

  users
    .command('create')
    .description('create one user; without --password a random one is made and printed')
    .requiredOption('--email <email>', 'the email address')
    .option('--name <name>', 'the display name', '')
    .option('--password <password>', 'the password (8 to 72 bytes)')
    .option('--metadata <json>', 'a JSON object the user may change', jsonObjectOption('metadata'))
    .option('--app <json>', 'a JSON object only admins may change', jsonObjectOption('app'))
    .option('--inactive', 'create the account inactive', false)
    .action(
      async (options: {
        email: string;
        name: string;
        password?: string;
        metadata?: object;
        app?: object;
        inactive: boolean;
      }) => {
        const password = options.password ?? randomBytes(18).toString('base64url');
        await withOperator(async ({ useCases }) => {
          try {
            const user = await useCases.users.create({
              email: options.email,
              name: options.name,
              password,
              metadata: options.metadata as never,
              app: options.app as never,
              active: options.inactive ? 0 : 1,
            });
            const shown = {
              id: user.id,
              email: user.email,
              name: user.name,
              ...(options.password ? {} : { password }),
            };
            process.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
          } catch (error) {
            if (error instanceof ValidationError)
              throw new CliExit(EXIT.usage, error.issues.map((issue) => issue.detail).join('; '));
            if (error instanceof EmailTakenError) throw new CliExit(EXIT.conflict, error.message);
            throw error;
          }
        });
      },
    );

  users
    .command('ban')
    .description('ban a user (every session ends; audited as user.banned, by the system)')
    .requiredOption('--email <email>', "the user's email address")
    .requiredOption('--reason <reason>', 'why (shown to admins, recorded in the audit trail)')
    .option('--until <time>', 'when the ban ends, an ISO 8601 UTC time to come; without it, no end')
    .action(async (options: { email: string; reason: string; until?: string }) => {
      await withOperator(async ({ database, useCases }) => {
        const id = await userIdOf(database.repositories.users, options.email);
        const input = { reason: options.reason, until: options.until ?? null };
        printBan(await usageOnInvalid(() => useCases.users.ban(id, input)));
      });
    });

  users
    .command('unban')
    .description("lift a user's ban (audited as user.unbanned, by the system)")
    .requiredOption('--email <email>', "the user's email address")
    .action(async (options: { email: string }) => {
      await withOperator(async ({ database, useCases }) => {
        printBan(await useCases.users.unban(await userIdOf(database.repositories.users, options.email)));
      });
    });

  return users;
}

/** The id of the user with `email`; a usage error when there is none. */
async function userIdOf(users: UserRepository, email: string): Promise<string> {
  const user = await users.findByEmail(normalizeEmail(email));
  if (!user) throw new CliExit(EXIT.usage, `no user has the email ${email}`);
  return user.id;
}

async function usageOnInvalid<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ValidationError)
      throw new CliExit(EXIT.usage, error.issues.map((issue) => issue.detail).join('; '));
    throw error;
  }
}

/** A user's ban as the admin API shows it, on stdout as JSON. */
function printBan(user: ShownUser): void {
  const shown = {
    id: user.id,
    email: user.email,
    banned: user.banned,
    banned_until: user.banned ? (user.bannedUntil?.toISOString() ?? null) : null,
    ban_reason: user.banned ? user.banReason : null,
  };
  process.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
}
