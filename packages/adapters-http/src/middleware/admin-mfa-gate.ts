import { MfaEnrolmentRequiredError, type AdminMfaMode, type AuthService, type FactorService } from '@uas/domain';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../app-env';

/**
 * What an admin without a factor may still reach when ADMIN_MFA is required: who they are (the
 * panel reads it to show its pages, enrolment first), enrolment, refresh and logout.
 */
const OPEN_WHILE_ENROLLING =
  /^\/v1\/admin\/(?:me|me\/factors(?:\/.*)?|me\/recovery-codes|refresh|token\/refresh|logout(?:\/.*)?)$/;
const ADMIN_API = /^\/v1\/admin(?:\/|$)/;
const BEARER = /^Bearer[ \t]+(.+)$/i;

/**
 * ADMIN_MFA=required: an admin signed in without an active second factor (a first admin, or one
 * whose factors were reset) gets 403 `mfa_enrolment_required` from every admin route but those of
 * enrolment, refresh and logout. A request without a valid admin token goes on to its route, which
 * refuses it as it always does; the panel's files are not under /v1/admin.
 */
export function adminMfaGate({
  mode,
  adminAuth,
  factors,
}: {
  mode: AdminMfaMode;
  adminAuth: AuthService;
  factors: FactorService;
}) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (mode === 'required' && ADMIN_API.test(c.req.path) && !OPEN_WHILE_ENROLLING.test(c.req.path)) {
      const token = BEARER.exec(c.req.header('authorization') ?? '')?.[1]?.trim();
      const identity = token ? await adminAuth.authenticate(token).catch(() => null) : null;
      if (identity && !(await factors.hasActive('admin', identity.subjectId))) throw new MfaEnrolmentRequiredError();
    }
    await next();
  });
}
