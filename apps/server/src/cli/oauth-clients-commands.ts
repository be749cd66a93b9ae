import { Command } from 'commander';
import {
  ID_TOKEN_SIGNING_ALGORITHMS,
  isUuid,
  NotFoundError,
  OAUTH_APPLICATION_TYPES,
  OAUTH_CLIENT_TYPES,
  OPENID_SCOPES,
  SYSTEM,
  ValidationError,
  type OAuthClient,
  type OAuthClientPatch,
} from '@uas/domain';
import { CliExit, EXIT } from './exit-codes';
import { withOperator } from './operator';

/** A client as the admin API shows it: never its secret. */
const shown = (client: OAuthClient) => ({
  id: client.id,
  client_id: client.id,
  name: client.name,
  type: client.type,
  application_type: client.applicationType,
  redirect_uris: client.redirectUris,
  post_logout_redirect_uris: client.postLogoutRedirectUris,
  scopes: client.scopes,
  first_party: client.firstParty,
  id_token_signed_response_alg: client.idTokenSigningAlgorithm,
  created: client.created.toISOString(),
  updated: client.updated.toISOString(),
});

/** `--id-token-alg`: an algorithm, or `default` for the service's JWT_ALGORITHM; absent stays absent. */
const ID_TOKEN_ALG_HELP = `how its ID tokens are signed: ${ID_TOKEN_SIGNING_ALGORITHMS.join(', ')}, or default (JWT_ALGORITHM)`;
const idTokenAlgorithm = (option: string | undefined) => (option === 'default' ? null : option);

const print = (value: object) => process.stdout.write(`${JSON.stringify(value)}\n`);

/** What the domain refuses is the command line's fault: a bad attribute, a client that is not there. */
async function usageOnRefusal<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ValidationError)
      throw new CliExit(EXIT.usage, error.issues.map((issue) => issue.detail).join('; '));
    if (error instanceof NotFoundError) throw new CliExit(EXIT.usage, 'no OAuth client has this id');
    throw error;
  }
}

/** A client's id: what is no UUID names no client, and is not asked of the database. */
const clientId = (value: string) => {
  if (!isUuid(value)) throw new CliExit(EXIT.usage, 'no OAuth client has this id');
  return value;
};

/** A repeated option's values, in the order given. */
const collect = (value: string, previous: string[] = []) => [...previous, value];
const commaList = (value: string) =>
  value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);

/**
 * `oauth-clients list|create|update|rotate-secret|delete`: the applications an owner manages on
 * the panel's Applications page. Each change is audited by the system; a secret is printed only
 * by the command that made it.
 */
export function oauthClientsCommand(): Command {
  const clients = new Command('oauth-clients').description(
    'the applications that sign their users in through this service (OpenID Connect clients)',
  );

  clients
    .command('list')
    .description('print every client, oldest first, one JSON object a line (never a secret)')
    .action(async () => {
      await withOperator(async ({ useCases }) => {
        for (const client of await useCases.oauthClients.list()) print(shown(client));
      });
    });

  clients
    .command('create')
    .argument('<name>', 'what users see on the consent page')
    .requiredOption('--type <type>', OAUTH_CLIENT_TYPES.join(' or '))
    .requiredOption('--redirect-uri <uri>', 'where a code may be sent, matched exactly (repeat for more)', collect)
    .option('--application-type <type>', OAUTH_APPLICATION_TYPES.join(' or '), 'web')
    .option('--post-logout-redirect-uri <uri>', 'where logout may lead (repeat for more)', collect)
    .option('--scopes <scopes>', `comma-separated, among ${OPENID_SCOPES.join(' ')} (openid always)`)
    .option('--first-party', 'trusted: its users are not asked to consent', false)
    .option('--id-token-alg <alg>', ID_TOKEN_ALG_HELP)
    .description("register a client and print it; a confidential client's secret is printed this once")
    .action(
      async (
        name: string,
        options: {
          type: string;
          redirectUri: string[];
          applicationType: string;
          postLogoutRedirectUri?: string[];
          scopes?: string;
          firstParty: boolean;
          idTokenAlg?: string;
        },
      ) => {
        await withOperator(async ({ database, secretKeyRing, useCases }) => {
          // The key ring seals the secret: it may be new on a database no server has started on.
          await database.withStartupLock(() => secretKeyRing.ensureSecrets());
          const { client, secret } = await usageOnRefusal(() =>
            useCases.oauthClients.create(
              {
                name,
                type: options.type,
                applicationType: options.applicationType,
                redirectUris: options.redirectUri,
                postLogoutRedirectUris: options.postLogoutRedirectUri ?? [],
                scopes: options.scopes === undefined ? undefined : commaList(options.scopes),
                firstParty: options.firstParty,
                idTokenSigningAlgorithm: idTokenAlgorithm(options.idTokenAlg),
              },
              SYSTEM,
            ),
          );
          print({ ...shown(client), client_secret: secret });
        });
      },
    );

  clients
    .command('update')
    .argument('<id>', 'the client’s id (see oauth-clients list)', clientId)
    .option('--name <name>', 'a new name')
    .option('--redirect-uri <uri>', 'replaces every redirect URI (repeat for more)', collect)
    .option('--post-logout-redirect-uri <uri>', 'replaces every post-logout URI (repeat for more)', collect)
    .option('--no-post-logout-redirect-uris', 'remove every post-logout URI')
    .option('--scopes <scopes>', `comma-separated, among ${OPENID_SCOPES.join(' ')} (openid always)`)
    .option('--first-party', 'its users are not asked to consent')
    .option('--no-first-party', 'its users are asked to consent')
    .option('--id-token-alg <alg>', ID_TOKEN_ALG_HELP)
    .description('change what the options name, and print the client (never its secret)')
    .action(
      async (
        id: string,
        options: {
          name?: string;
          redirectUri?: string[];
          postLogoutRedirectUri?: string[];
          postLogoutRedirectUris?: boolean;
          scopes?: string;
          firstParty?: boolean;
          idTokenAlg?: string;
        },
      ) => {
        const patch: OAuthClientPatch = {
          name: options.name,
          redirectUris: options.redirectUri,
          postLogoutRedirectUris: options.postLogoutRedirectUris === false ? [] : options.postLogoutRedirectUri,
          scopes: options.scopes === undefined ? undefined : commaList(options.scopes),
          firstParty: options.firstParty,
          idTokenSigningAlgorithm: idTokenAlgorithm(options.idTokenAlg),
        };
        await withOperator(async ({ useCases }) => {
          print(shown(await usageOnRefusal(() => useCases.oauthClients.update(id, patch, SYSTEM))));
        });
      },
    );

  clients
    .command('rotate-secret')
    .argument('<id>', 'the client’s id (see oauth-clients list)', clientId)
    .description('give a confidential client a new secret and print it, once; the old one stops working at once')
    .action(async (id: string) => {
      await withOperator(async ({ database, secretKeyRing, useCases }) => {
        await database.withStartupLock(() => secretKeyRing.ensureSecrets());
        const { client, secret } = await usageOnRefusal(() => useCases.oauthClients.rotateSecret(id, SYSTEM));
        print({ ...shown(client), client_secret: secret });
      });
    });

  clients
    .command('delete')
    .argument('<id>', 'the client’s id (see oauth-clients list)', clientId)
    .description('delete a client: its grants, codes and tokens stop working at once')
    .action(async (id: string) => {
      await withOperator(async ({ useCases }) => {
        await usageOnRefusal(() => useCases.oauthClients.delete(id, SYSTEM));
        process.stdout.write(`Deleted OAuth client ${id}.\n`);
      });
    });

  return clients;
}
