import { Command } from 'commander';
import { ALL_WEBHOOK_EVENTS, isUuid, NotFoundError, SYSTEM, ValidationError, type Webhook } from '@uas/domain';
import { CliExit, EXIT } from './exit-codes';
import { withOperator } from './operator';

/** An endpoint as the admin API shows it: never its secret. */
const shown = (webhook: Webhook) => ({
  id: webhook.id,
  url: webhook.url,
  events: webhook.events,
  enabled: webhook.enabled,
  description: webhook.description,
  disabled_reason: webhook.disabledReason,
  failing_since: webhook.failingSince?.toISOString() ?? null,
  created: webhook.created.toISOString(),
});

const print = (value: object, pretty = true) =>
  process.stdout.write(`${pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value)}\n`);

/** What the domain refuses is the command line's fault: a bad URL or event, an endpoint that is not there. */
async function usageOnRefusal<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ValidationError)
      throw new CliExit(EXIT.usage, error.issues.map((issue) => issue.detail).join('; '));
    if (error instanceof NotFoundError) throw new CliExit(EXIT.usage, 'no webhook endpoint has this id');
    throw error;
  }
}

/** An endpoint's id: what is no UUID names no endpoint, and is not asked of the database. */
const endpointId = (value: string) => {
  if (!isUuid(value)) throw new CliExit(EXIT.usage, 'no webhook endpoint has this id');
  return value;
};

const sequence = (value: string) => {
  if (!/^\d+$/.test(value)) throw new CliExit(EXIT.usage, `not an event number (0 or more): ${value}`);
  return Number(value);
};

/**
 * `webhooks list|create|delete|rotate-secret|replay`: the endpoints an owner manages on the
 * panel's Webhooks page. Each change is audited by the system; a secret is printed only by the
 * command that made it.
 */
export function webhooksCommand(): Command {
  const webhooks = new Command('webhooks').description(
    'the webhook endpoints that receive the events of the audit trail',
  );

  webhooks
    .command('list')
    .description('print every endpoint, oldest first, one JSON object a line (never a secret)')
    .action(async () => {
      await withOperator(async ({ useCases }) => {
        for (const webhook of await useCases.webhooks.list()) print(shown(webhook), false);
      });
    });

  webhooks
    .command('create')
    .argument('<url>', 'where to POST the events: https (http only with WEBHOOK_ALLOW_HTTP=true)')
    .option(
      '--events <types>',
      `the event types, comma-separated (docs/API.md lists them), or ${ALL_WEBHOOK_EVENTS} for all`,
      ALL_WEBHOOK_EVENTS,
    )
    .option('--description <text>', 'who receives these events, for the next admin', '')
    .option('--disabled', 'create it disabled: nothing is sent until it is enabled on the panel', false)
    .description('create an endpoint and print it with its signing secret (whsec_…): the only time it is shown')
    .action(async (url: string, options: { events: string; description: string; disabled: boolean }) => {
      await withOperator(async ({ database, secretKeyRing, useCases }) => {
        // The key ring seals the secret: it may be new on a database no server has started on.
        await database.withStartupLock(() => secretKeyRing.ensureSecrets());
        const events = options.events.split(',').map((type) => type.trim());
        const { webhook, secret } = await usageOnRefusal(() =>
          useCases.webhooks.create(
            { url, events, description: options.description, enabled: !options.disabled },
            SYSTEM,
          ),
        );
        print({ ...shown(webhook), secret });
      });
    });

  webhooks
    .command('delete')
    .argument('<id>', 'the endpoint’s id (see webhooks list)', endpointId)
    .description('delete an endpoint: nothing more is sent to it, and its delivery log goes with it')
    .action(async (id: string) => {
      await withOperator(async ({ useCases }) => {
        await usageOnRefusal(() => useCases.webhooks.delete(id, SYSTEM));
        process.stdout.write(`Deleted webhook endpoint ${id}.\n`);
      });
    });

  webhooks
    .command('rotate-secret')
    .argument('<id>', 'the endpoint’s id (see webhooks list)', endpointId)
    .description(
      'give an endpoint a new signing secret and print it, once; the old one keeps signing beside it for 24 hours',
    )
    .action(async (id: string) => {
      await withOperator(async ({ database, secretKeyRing, useCases }) => {
        await database.withStartupLock(() => secretKeyRing.ensureSecrets());
        const { webhook, secret } = await usageOnRefusal(() => useCases.webhooks.rotateSecret(id, SYSTEM));
        print({ ...shown(webhook), secret });
      });
    });

  webhooks
    .command('replay')
    .argument('<id>', 'the endpoint’s id (see webhooks list)', endpointId)
    .requiredOption('--since <n>', 'the first event number (data.sequence) to send again', sequence)
    .description(
      'send an endpoint every event from number <n> on again (those it subscribes to); a running server delivers them',
    )
    .action(async (id: string, options: { since: number }) => {
      await withOperator(async ({ useCases }) => {
        const queued = await usageOnRefusal(() => useCases.webhookDeliveries.replaySince(SYSTEM, id, options.since));
        print({ queued }, false);
      });
    });

  return webhooks;
}
