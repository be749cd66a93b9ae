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
/** The page an administrator's invitation opens: its token is stored with the invitation, not as an action token. */
export const ADMIN_INVITATION_PAGE = 'admin-invitation';
export type AccountPage = (typeof ACCOUNT_PAGES)[ActionPurpose] | typeof ADMIN_INVITATION_PAGE;

/** The link a message carries: `page` on the service's public address, the token as `token`. */
export function accountPageLink(publicUrl: string, page: AccountPage, token: string): string {
  const url = new URL(`account/${page}`, publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`);
  url.searchParams.set('token', token);
  return url.href;
}

/** The link of a token of `purpose`: the page of its purpose. */
export const accountLink = (publicUrl: string, purpose: ActionPurpose, token: string): string =>
  accountPageLink(publicUrl, ACCOUNT_PAGES[purpose], token);
