import { ACCOUNT_PAGES, ADMIN_INVITATION_PAGE, type AccountPage, type RequestContext } from '@uas/domain';
import type { AccountActions } from './account-actions';

/** What one page says and does: its words, whether it asks for a new password, and its action. */
export interface AccountPageSpec {
  page: AccountPage;
  title: string;
  intro: string;
  submit: string;
  /** The form asks for a new password, twice; the action gets it. */
  choosesPassword: boolean;
  done: { title: string; text: string };
  /** What the page says when the address it acts on was taken meanwhile (409), and what to do next. */
  emailTaken: { text: string; next: string };
  /** The action it takes, by name, and how it calls it. */
  action: keyof AccountActions;
  act(actions: AccountActions, token: string, password: string, request: RequestContext): Promise<void>;
}

/** An account's address taken by another account meanwhile: what the pages of users' links say. */
const ADDRESS_TAKEN = {
  text: 'Another account uses this email address now, so your address was not changed.',
  next: 'Sign in and choose another address.',
};

/** The pages the mailed links open: one per token purpose (`ACCOUNT_PAGES`), and an administrator's invitation's. */
export const ACCOUNT_PAGE_SPECS: readonly AccountPageSpec[] = [
  {
    page: ACCOUNT_PAGES.verification,
    title: 'Verify your email address',
    intro: 'Confirm that this email address is yours.',
    submit: 'Verify email address',
    choosesPassword: false,
    done: { title: 'Email address verified', text: 'Your email address is verified.' },
    emailTaken: ADDRESS_TAKEN,
    action: 'verify',
    act: (actions, token, _password, request) => actions.verify(token, request),
  },
  {
    page: ACCOUNT_PAGES.email_change,
    title: 'Confirm your new email address',
    intro: 'Confirm that your account should use this email address from now on.',
    submit: 'Confirm new email address',
    choosesPassword: false,
    done: { title: 'Email address changed', text: 'Your account now uses your new email address.' },
    emailTaken: ADDRESS_TAKEN,
    action: 'verify',
    act: (actions, token, _password, request) => actions.verify(token, request),
  },
  {
    page: ACCOUNT_PAGES.recovery,
    title: 'Choose a new password',
    intro: 'Choose a new password for your account. Every device signed in to it will be signed out.',
    submit: 'Set new password',
    choosesPassword: true,
    done: { title: 'Password changed', text: 'Your password has been changed. Sign in with your new password.' },
    emailTaken: ADDRESS_TAKEN,
    action: 'resetPassword',
    act: (actions, token, password, request) => actions.resetPassword(token, password, request),
  },
  {
    page: ACCOUNT_PAGES.invitation,
    title: 'Accept your invitation',
    intro: 'Choose a password to finish setting up your account.',
    submit: 'Accept invitation',
    choosesPassword: true,
    done: { title: 'Invitation accepted', text: 'Your account is ready. Sign in with your new password.' },
    emailTaken: ADDRESS_TAKEN,
    action: 'acceptInvitation',
    act: (actions, token, password, request) => actions.acceptInvitation(token, password, request),
  },
  {
    page: ADMIN_INVITATION_PAGE,
    title: 'Become an administrator',
    intro: 'Choose a password for your administrator account. You sign in with it at the admin panel.',
    submit: 'Accept invitation',
    choosesPassword: true,
    done: {
      title: 'Invitation accepted',
      text: 'Your administrator account is ready. Sign in to the admin panel with your email address and new password.',
    },
    emailTaken: {
      text: 'An administrator with this email address exists already, so no account was made.',
      next: 'Sign in to the admin panel, or ask an owner for a new invitation.',
    },
    action: 'acceptAdminInvitation',
    act: (actions, token, password, request) => actions.acceptAdminInvitation(token, password, request),
  },
];
