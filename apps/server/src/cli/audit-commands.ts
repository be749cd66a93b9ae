import { Command } from 'commander';
import { CliExit, EXIT } from './exit-codes';
import { withOperator } from './operator';

/** `audit verify`: walks the hash chain of the audit trail and names the first event that breaks it. */
export function auditCommand(): Command {
  const audit = new Command('audit').description('the audit trail');
  audit
    .command('verify')
    .description(
      `check that no audit event was changed, removed or reordered since it was written; changes nothing; exits ${EXIT.tampered} naming the first broken event`,
    )
    .action(async () => {
      await withOperator(
        async ({ useCases }) => {
          const { broken, checked, state } = await useCases.audit.verify();
          if (broken) {
            const where = broken.event ? `at event ${broken.event.seq} (id ${broken.event.id})` : 'at its end';
            throw new CliExit(EXIT.tampered, `The audit trail is broken ${where}: ${broken.reason}.`);
          }
          const events = `${checked} event${checked === 1 ? '' : 's'}`;
          const span = checked === 0 ? '' : `, ${state.cut.seq + 1} to ${state.head.seq}`;
          const pruned = state.cut.seq > 0 ? `; events 1 to ${state.cut.seq} were pruned, as recorded` : '';
          const head = state.head.hash === null ? '' : ` Head hash: ${state.head.hash}.`;
          process.stdout.write(`The audit trail verifies: ${events}${span}${pruned}.${head}\n`);
        },
        { migrate: false },
      );
    });
  return audit;
}
