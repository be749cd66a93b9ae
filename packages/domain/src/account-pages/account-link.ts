import type { ActionPurpose } from '../action-tokens/action-token.ts';

/**
 * The page under `/account/` that each mailed link opens, by the purpose of its token. A GET of
 * the page shows a form and consumes nothing (mail scanners follow links); only its POST does.
 */
export const ACCOUNT_PAGES = {
  verification: 'verify',
  recovery: 'reset-password',
  email_change: 'confirm-email',
  invitation: 'accept-invitation',
} as const satisfies Record<ActionPurpose, string>;
export type AccountPage = (typeof ACCOUNT_PAGES)[ActionPurpose];

/** The link a message carries: the page of `purpose` on the service's public address, the token as `token`. */
export function accountLink(publicUrl: string, purpose: ActionPurpose, token: string): string {
  const url = new URL(`account/${ACCOUNT_PAGES[purpose]}`, publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`);
  url.searchParams.set('token', token);
  return url.href;
}
