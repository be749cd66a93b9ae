import { closedObject, text } from './json-api.schemas';
import { parseWith } from './validation';

/** `{ "email": "…" }`: POST /v1/recover and POST /v1/verify/resend. The address is checked in the domain. */
export const emailRequestSchema = closedObject({ email: text() }, 'member');
export const parseEmailRequest = (body: unknown) => parseWith(emailRequestSchema, body).email;

/** `{ "token": "…", "password": "…" }`: POST /v1/reset-password. Both are checked in the domain, the password first. */
export const resetPasswordSchema = closedObject({ token: text(), password: text() }, 'member');
export const parseResetPassword = (body: unknown) => parseWith(resetPasswordSchema, body);

/** `?delivery=` of an admin's recovery request: `mail` (default) or `link`. */
export const RECOVERY_DELIVERIES = ['mail', 'link'] as const;
