import type { SessionGrant, SignInSteps } from '@uas/domain';
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { limitPerAddress } from '../middleware/per-address-limit';
import { requestContext } from '../network/request-context';
import { describeRoute } from '../openapi/route-description';
import { passkeyChallengeDocument, passkeyChallengeDocumentSchema } from '../presenters/sign-in-challenge.presenter';
import { parsePasskeyBody, parseSecondStep, passkeyBodySchema, secondStepBodySchema } from '../schemas/sign-in.schemas';
import { jsonBody } from '../schemas/validation';

interface SignInStepRoutes {
  /** `/v1/login` or `/v1/admin/login`: the steps live under the password step's path. */
  path: string;
  /** Prefixes the operation ids: `user` → `userLoginMfa`, `admin` → `adminLoginMfa`. */
  operation: 'user' | 'admin';
  tags: readonly string[];
  signIn: SignInSteps;
  /** What a step that opened a session answers: the session record (and for admins the panel's cookie). */
  session: {
    description: string;
    schema: NonNullable<Parameters<typeof describeRoute>[0]['responses'][number]['schema']>;
    headers?: readonly 'Set-Cookie'[];
    example: unknown;
  };
  respond: (c: Context<AppEnv>, grant: SessionGrant) => Response;
}

/**
 * The steps after (or instead of) the password, for one kind of account: the second step that
 * answers a login's challenge, and the passwordless passkey sign-in with its options. Each ends as
 * the password login does, in the session record.
 */
export function signInStepRoutes({ path, operation, tags, signIn, session, respond }: SignInStepRoutes) {
  return new Hono<AppEnv>()
    .post(
      `${path}/mfa`,
      describeRoute({
        operationId: `${operation}LoginMfa`,
        summary: 'Answer the second step of a login',
        description:
          "The login's challenge with a TOTP code or recovery code (`code`), or a passkey assertion over its `webauthn` options (`credential`). A wrong answer counts against the challenge (the 5th ends it) and against the account: 10 wrong second steps in a row lock it for 15 minutes (429 with Retry-After). The challenge is single use.",
        tags,
        body: { schema: secondStepBodySchema, example: { challenge: 'q2Vj…', code: '123456' } },
        responses: { 200: session },
        errors: [
          'invalid_challenge',
          'invalid_second_factor',
          'too_many_attempts',
          'account_inactive',
          'email_not_verified',
        ],
      }),
      jsonBody(parseSecondStep),
      async (c) => {
        const { handle, answer } = c.req.valid('json');
        return respond(c, await signIn.secondStep.complete(handle, answer, requestContext(c)));
      },
    )
    .post(
      `${path}/passkey/options`,
      describeRoute({
        operationId: `${operation}LoginPasskeyOptions`,
        summary: 'Start a passwordless sign-in with a passkey',
        description:
          "Request options for a discoverable passkey (no allowCredentials), valid 5 minutes and once. Limited per client address (`PASSKEY_OPTIONS_PER_MINUTE`, admins' and users' together) → 429 with `Retry-After`. Pass `data.attributes.webauthn` to `startAuthentication()`, then send the assertion to the passkey sign-in. Its challenge also serves a step-up assertion of the signed-in account.",
        tags,
        responses: { 200: { description: 'The passkey challenge.', schema: passkeyChallengeDocumentSchema } },
      }),
      // Each answer stores a challenge: limited per client address, admins' and users' together.
      limitPerAddress(signIn.passkeyOptionsLimit),
      async (c) => c.json(passkeyChallengeDocument(await signIn.passkey.options(requestContext(c))), 200),
    )
    .post(
      `${path}/passkey`,
      describeRoute({
        operationId: `${operation}LoginPasskey`,
        summary: 'Sign in with a passkey alone',
        description:
          'A discoverable passkey\'s assertion over a challenge of the passkey options, with user verification. The access token carries `amr` `["hwk"]` (a device-bound passkey) or `["swk"]` (a synced one) and `aal` `aal2`. Refused (429 with `Retry-After`) while the account\'s second step is locked.',
        tags,
        body: { schema: passkeyBodySchema },
        responses: { 200: session },
        errors: ['invalid_second_factor', 'account_inactive', 'email_not_verified', 'too_many_attempts'],
      }),
      jsonBody(parsePasskeyBody),
      async (c) => respond(c, await signIn.passkey.signIn(c.req.valid('json'), requestContext(c))),
    );
}
