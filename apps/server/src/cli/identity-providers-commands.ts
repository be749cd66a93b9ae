import { text } from 'node:stream/consumers';
import { Command } from 'commander';
import {
  IDENTITY_PROVIDER_KINDS,
  isUuid,
  NotFoundError,
  SlugTakenError,
  SYSTEM,
  ValidationError,
  type IdentityProvider,
} from '@uas/domain';
import { CliExit, EXIT } from './exit-codes';
import { withOperator } from './operator';

const print = (value: object) => process.stdout.write(`${JSON.stringify(value)}\n`);

/** What the domain refuses is the command line's fault: a bad attribute, a slug taken, a provider that is not there. */
async function usageOnRefusal<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ValidationError)
      throw new CliExit(EXIT.usage, error.issues.map((issue) => issue.detail).join('; '));
    if (error instanceof SlugTakenError) throw new CliExit(EXIT.usage, error.message);
    if (error instanceof NotFoundError) throw new CliExit(EXIT.usage, 'no identity provider has this id');
    throw error;
  }
}

const providerId = (value: string) => {
  if (!isUuid(value)) throw new CliExit(EXIT.usage, 'no identity provider has this id');
  return value;
};

/**
 * `identity-providers list|create|delete`: the providers an owner manages on the panel's
 * Sign-in providers page. Each change is audited by the system. The client secret is read from
 * stdin, never from the arguments (which other users of the machine may see), and never printed.
 */
export function identityProvidersCommand(): Command {
  const providers = new Command('identity-providers').description('the identity providers users may sign in with');

  providers
    .command('list')
    .description('print every provider, oldest first, one JSON object a line (never a secret)')
    .action(async () => {
      await withOperator(async ({ useCases }) => {
        const service = useCases.identityProviders;
        for (const provider of await service.list()) print(shown(provider, service.callbackUrl(provider)));
      });
    });

  providers
    .command('create')
    .argument('<slug>', 'lower-case letters, digits and dashes: the sign-in URLs name the provider by it')
    .requiredOption('--kind <kind>', IDENTITY_PROVIDER_KINDS.join(', '))
    .requiredOption('--client-id <id>', 'the client id the provider issued')
    .option('--issuer <url>', 'required for oidc; for a preset, an override of its own')
    .option('--scopes <scopes>', 'extra scopes, comma-separated', '')
    .option('--client-secret-stdin', 'read the client secret from stdin (required for every kind but oidc)', false)
    .option('--auto-link', 'link a first sign-in to the user with the same verified email', false)
    .description('add a provider and print it with the callback URL to register at the provider')
    .action(
      async (
        slug: string,
        options: {
          kind: string;
          clientId: string;
          issuer?: string;
          scopes: string;
          clientSecretStdin: boolean;
          autoLink: boolean;
        },
      ) => {
        const clientSecret = options.clientSecretStdin ? (await text(process.stdin)).replace(/\r?\n$/, '') : null;
        await withOperator(async ({ database, secretKeyRing, useCases }) => {
          // The key ring seals the secret: it may be new on a database no server has started on.
          await database.withStartupLock(() => secretKeyRing.ensureSecrets());
          const service = useCases.identityProviders;
          const provider = await usageOnRefusal(() =>
            service.create(
              {
                slug,
                kind: options.kind,
                issuer: options.issuer ?? null,
                clientId: options.clientId,
                clientSecret,
                scopes: options.scopes
                  .split(',')
                  .map((scope) => scope.trim())
                  .filter(Boolean),
                autoLink: options.autoLink,
              },
              SYSTEM,
            ),
          );
          print(shown(provider, service.callbackUrl(provider)));
        });
      },
    );

  providers
    .command('delete')
    .argument('<id>', 'the provider’s id (see identity-providers list)', providerId)
    .description("delete a provider: its users' identities through it go with it")
    .action(async (id: string) => {
      await withOperator(async ({ useCases }) => {
        await usageOnRefusal(() => useCases.identityProviders.delete(id, SYSTEM));
        process.stdout.write(`Deleted identity provider ${id}.\n`);
      });
    });

  return providers;
}

/** A provider as the admin API shows it: whether a secret is set, never the secret. */
const shown = (provider: IdentityProvider, callbackUrl: string) => ({
  id: provider.id,
  slug: provider.slug,
  kind: provider.kind,
  issuer: provider.issuer,
  client_id: provider.clientId,
  client_secret_set: provider.clientSecret !== null,
  scopes: provider.scopes,
  enabled: provider.enabled,
  auto_link: provider.autoLink,
  callback_url: callbackUrl,
  created: provider.created.toISOString(),
});
