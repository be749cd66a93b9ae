import type { AdminAccess, AuthService, FactorService } from '@uas/domain';
import { Hono, type MiddlewareHandler } from 'hono';
import type { AppEnv, AuthenticatedEnv } from '../app-env';
import { adminAccess } from '../middleware/admin-access';
import { bearerAuth } from '../middleware/bearer-auth';
import { requestContext } from '../network/request-context';
import { describeRoute } from '../openapi/route-description';
import {
  activationDocument,
  activationDocumentSchema,
  enrolmentDocument,
  enrolmentDocumentSchema,
  factorListDocument,
  factorListDocumentSchema,
  recoveryCodesDocument,
  recoveryCodesDocumentSchema,
} from '../presenters/factor.presenter';
import { enrolDocument, stepUpDocument, verifyFactorDocument } from '../schemas/factor.schemas';
import { jsonBody, parseWith } from '../schemas/validation';
import { requireUuidParam } from './uuid-param';

/** What a step-up is, for the routes' descriptions. */
const STEP_UP_PROOF =
  'a session whose login had a second step within the last 5 minutes, or a `code` (TOTP or recovery code) or `credential` (an assertion over a challenge of the passkey options) in the body, not both (422); else 403 `second_factor_required`. A wrong proof counts toward the account’s second-step lock (10 in a row: 429 `too_many_attempts` with `Retry-After`, as at the login’s second step).';
const STEP_UP = `Needs a step-up: ${STEP_UP_PROOF}`;

interface Audience {
  /** `/v1/users/me` or `/v1/admin/me`. */
  base: '/v1/users/me' | '/v1/admin/me';
  /** Prefix of the operation ids: `Own` or `AdminOwn`. */
  name: 'Own' | 'AdminOwn';
  tag: string;
  /** Lets through only a valid token of the audience's kind of account. */
  authenticated: MiddlewareHandler<AuthenticatedEnv>;
}

/**
 * An account's own second factors: enrol (TOTP or passkey), verify, list, remove, and renew the
 * recovery codes. The same routes for users (`/v1/users/me/…`, user token) and admins
 * (`/v1/admin/me/…`, admin token).
 */
function ownFactorsRoutes(factors: FactorService, { base, name, tag, authenticated }: Audience) {
  const knownFactor = requireUuidParam('factor');
  const tags = [tag];
  return new Hono<AppEnv>()
    .get(
      `${base}/factors`,
      describeRoute({
        operationId: `list${name}Factors`,
        summary: 'List your second factors and how many recovery codes are left',
        tags,
        responses: { 200: { description: 'Your factors, oldest first.', schema: factorListDocumentSchema } },
      }),
      authenticated,
      async (c) => {
        const { kind, subjectId } = c.get('identity');
        return c.json(factorListDocument(await factors.list(kind, subjectId)), 200);
      },
    )
    .post(
      `${base}/factors`,
      describeRoute({
        operationId: `enrol${name}Factor`,
        summary: 'Start enrolling a second factor (TOTP or passkey)',
        description: `The factor is pending until verified, within 10 minutes. TOTP answers its secret, \`otpauth_uri\` and QR code (SVG), shown once; WebAuthn answers the creation options for \`navigator.credentials.create()\`. At most 10 factors per account (422; a pending one past its 10 minutes does not count). The account's first factor needs nothing more; once it has an active factor, enrolling another needs a step-up: ${STEP_UP_PROOF}`,
        tags,
        body: {
          schema: enrolDocument,
          example: { data: { type: 'factors', attributes: { kind: 'totp' } } },
        },
        responses: { 201: { description: 'The pending factor.', schema: enrolmentDocumentSchema } },
        errors: ['second_factor_required', 'invalid_second_factor', 'too_many_attempts'],
      }),
      authenticated,
      jsonBody((body) => parseWith(enrolDocument, body)),
      async (c) => {
        const { data, code, credential } = c.req.valid('json');
        const enrolment = await factors.enrol(
          c.get('identity'),
          data.attributes.kind,
          { code, credential },
          requestContext(c),
        );
        return c.json(enrolmentDocument(enrolment), 201);
      },
    )
    .post(
      `${base}/factors/:id/verify`,
      describeRoute({
        operationId: `verify${name}Factor`,
        summary: 'Prove a pending factor works, which activates it',
        description:
          'A current TOTP `code`, or the passkey `credential` (RegistrationResponseJSON). The code cannot sign in afterwards. The account’s first active factor also answers `recovery_codes`, shown once. A factor enrolled before another one became active needs a session whose login had a second step within the last 5 minutes (else 403 `second_factor_required`: remove it and enrol again with a step-up).',
        tags,
        body: { schema: verifyFactorDocument, example: { code: '123456' } },
        responses: { 200: { description: 'The active factor.', schema: activationDocumentSchema } },
        errors: ['invalid_second_factor', 'factor_already_active', 'second_factor_required'],
      }),
      authenticated,
      knownFactor,
      jsonBody((body) => parseWith(verifyFactorDocument, body)),
      async (c) => {
        const activation = await factors.verify(
          c.get('identity'),
          c.req.param('id'),
          c.req.valid('json'),
          requestContext(c),
        );
        return c.json(activationDocument(activation), 200);
      },
    )
    .delete(
      `${base}/factors/:id`,
      describeRoute({
        operationId: `remove${name}Factor`,
        summary: 'Remove one of your factors',
        description: `${STEP_UP} A pending factor (never verified) needs none: there is no second factor to prove yet. Removing the last active factor also removes the recovery codes.`,
        tags,
        body: { schema: stepUpDocument, optional: true, example: { code: '123456' } },
        responses: { 204: { description: 'The factor is gone.' } },
        errors: ['second_factor_required', 'invalid_second_factor', 'too_many_attempts'],
      }),
      authenticated,
      knownFactor,
      jsonBody((body) => parseWith(stepUpDocument, body)),
      async (c) => {
        await factors.remove(c.get('identity'), c.req.param('id'), c.req.valid('json'), requestContext(c));
        return c.body(null, 204);
      },
    )
    .post(
      `${base}/recovery-codes`,
      describeRoute({
        operationId: `regenerate${name}RecoveryCodes`,
        summary: 'Replace your recovery codes with a new set',
        description: `${STEP_UP} Every earlier code stops working.`,
        tags,
        body: { schema: stepUpDocument, optional: true, example: {} },
        responses: { 200: { description: 'The new codes, shown once.', schema: recoveryCodesDocumentSchema } },
        errors: ['second_factor_required', 'invalid_second_factor', 'too_many_attempts'],
      }),
      authenticated,
      jsonBody((body) => parseWith(stepUpDocument, body)),
      async (c) => {
        const identity = c.get('identity');
        const codes = await factors.regenerateRecoveryCodes(identity, c.req.valid('json'), requestContext(c));
        return c.json(recoveryCodesDocument(identity.subjectId, codes), 200);
      },
    );
}

/** A user's own factors, with a user access token. */
export const meFactorsRoutes = ({ factors, userAuth }: { factors: FactorService; userAuth: AuthService }) =>
  ownFactorsRoutes(factors, {
    base: '/v1/users/me',
    name: 'Own',
    tag: 'Own account',
    authenticated: bearerAuth(userAuth),
  });

/** An admin's own factors, with an admin access token. */
export const adminMeFactorsRoutes = ({
  factors,
  adminAccess: access,
}: {
  factors: FactorService;
  adminAccess: AdminAccess;
}) =>
  ownFactorsRoutes(factors, {
    base: '/v1/admin/me',
    name: 'AdminOwn',
    tag: 'Admin session',
    // It sets the identity as bearerAuth does, and the admin, which these routes do not read.
    authenticated: adminAccess(access, 'self') as unknown as MiddlewareHandler<AuthenticatedEnv>,
  });
