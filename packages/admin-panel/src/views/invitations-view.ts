import type { InvitationPage, InvitationResource, InvitationsApi } from '../api/invitations-api';
import { paths } from '../state/routes';
import { confirmAction } from '../ui/confirm-dialog';
import { h } from '../ui/dom';
import { field } from '../ui/field';
import { FormErrors } from '../ui/form-errors';
import { sendForm } from '../ui/send-form';
import { formatTimestamp } from '../ui/format';
import { navLink } from '../ui/nav-link';
import { toast } from '../ui/toast';
import { appHeader } from './app-header';
import { pagedList } from './paged-list';
import type { ScreenContext, View } from './view';

/**
 * Invitations: a form to invite an address, and the pending invitations, oldest first, each with
 * "Send again" (a new link; the old one stops working) and "Revoke" (the invitation and its user
 * go). The invitee's link is mailed, never shown here; without SMTP_URL it waits on the Mail page.
 */
export function invitationsView(context: ScreenContext, invitations: InvitationsApi): View {
  const { navigate, can } = context;
  const mayWrite = can('invitations.write');

  const heading = h('h1', { tabindex: -1, id: 'invitations-title' }, 'Invitations');
  const intro = h(
    'p',
    { class: 'muted' },
    'An invited user exists at once but cannot sign in until they choose a password through the mailed link. Without SMTP_URL, the message waits on the ',
    navLink(navigate, paths.mail, {}, 'Mail'),
    ' page.',
  );
  const status = h('div', { class: 'list-status', role: 'status' });
  const results = h('section', { class: 'results', 'aria-labelledby': 'pending-title', hidden: true });

  const email = field('Email', h('input', { type: 'email', name: 'email', required: true, autocomplete: 'off' }));
  const name = field('Name', h('input', { type: 'text', name: 'name', autocomplete: 'off' }), 'Optional.');
  const errors = new FormErrors({ email, name });
  const submit = h('button', { type: 'submit', class: 'button primary' }, 'Invite');
  const form = h(
    'form',
    { class: 'card invite-form', 'aria-labelledby': 'invite-title', novalidate: true },
    h('h2', { id: 'invite-title' }, 'Invite someone'),
    errors.element,
    h('div', { class: 'form-grid' }, email.element, name.element),
    h('div', { class: 'dialog-actions' }, submit),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void invite();
  });

  async function invite(): Promise<void> {
    errors.clear();
    const address = email.control.value.trim();
    if (errors.showProblems(address ? {} : { email: 'Enter the address to invite.' })) return;
    await sendForm(form, submit, errors, async () => {
      const invited = await invitations.invite({ email: address, name: name.control.value.trim() });
      form.reset();
      toast(`Invitation sent to ${invited.attributes.email}.`);
      await list.load();
    });
  }

  const list = pagedList({
    path: paths.invitations,
    status,
    results,
    text: {
      loading: 'Loading invitations…',
      failure: 'Could not load invitations',
      empty: 'No invitation is pending.',
      previous: 'Previous',
      next: 'Next',
    },
    fetch: (page, signal) => invitations.list(page, signal),
    render: (loaded: InvitationPage) => [
      h('h2', { id: 'pending-title', class: 'visually-hidden' }, 'Pending invitations'),
      h('div', { class: 'table-wrap' }, invitationTable(loaded.data)),
    ],
    range: (total, page) => `${total} pending · page ${page}`,
  });

  function invitationTable(listed: readonly InvitationResource[]): HTMLTableElement {
    const columns = ['Email', 'Name', 'Invited', 'Last sent', 'Link expires'];
    return h(
      'table',
      { class: 'users-table invitations-table' },
      h('caption', { class: 'visually-hidden' }, 'Pending invitations'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...columns.map((c) => h('th', { scope: 'col' }, c)),
          h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')),
        ),
      ),
      h('tbody', {}, ...listed.map(row)),
    );
  }

  function row(invitation: InvitationResource): HTMLTableRowElement {
    const { email: address, name: invitee, user_id, created, sent, expires } = invitation.attributes;
    const resend = h(
      'button',
      { type: 'button', class: 'button small', 'aria-label': `Send the invitation to ${address} again` },
      'Send again',
    );
    const revoke = h(
      'button',
      { type: 'button', class: 'button small danger-text', 'aria-label': `Revoke the invitation of ${address}` },
      'Revoke',
    );
    resend.addEventListener('click', () => void sendAgain(invitation, resend));
    revoke.addEventListener('click', () => void revokeIt(invitation));
    return h(
      'tr',
      { 'data-invitation-id': invitation.id },
      h('td', { 'data-label': 'Email', class: 'cell-email' }, navLink(navigate, paths.user(user_id), {}, address)),
      h('td', { 'data-label': 'Name' }, invitee || h('span', { class: 'muted' }, '—')),
      time('Invited', created),
      time('Last sent', sent),
      time('Link expires', expires),
      h('td', { class: 'cell-actions' }, mayWrite && h('div', { class: 'row-actions' }, resend, revoke)),
    );
  }

  async function sendAgain(invitation: InvitationResource, button: HTMLButtonElement): Promise<void> {
    if (button.getAttribute('aria-disabled') === 'true') return;
    button.setAttribute('aria-disabled', 'true');
    try {
      await invitations.resend(invitation.id);
      toast(`A new link was sent to ${invitation.attributes.email}; the previous one no longer works.`);
      await list.load();
    } catch (error) {
      toast((error as Error).message, 'error');
      button.removeAttribute('aria-disabled');
    }
  }

  async function revokeIt(invitation: InvitationResource): Promise<void> {
    const done = await confirmAction({
      title: 'Revoke the invitation?',
      message: `${invitation.attributes.email} will not be able to join with the link they were sent, and their account (not yet used) is deleted.`,
      confirmLabel: 'Revoke',
      action: () => invitations.revoke(invitation.id),
    });
    if (!done) return;
    toast(`Invitation of ${invitation.attributes.email} revoked.`);
    await list.load();
    results.querySelector<HTMLElement>('h2')?.focus();
  }

  void list.load();
  return {
    element: h(
      'div',
      { class: 'shell' },
      appHeader(context, 'invitations'),
      h('main', { class: 'page' }, h('div', { class: 'page-head' }, heading), intro, mayWrite && form, status, results),
    ),
    onLocationChange: list.onLocationChange,
    destroy: list.destroy,
  };
}

function time(label: string, iso: string): HTMLTableCellElement {
  const { text } = formatTimestamp(iso);
  return h('td', { 'data-label': label, class: 'cell-time' }, h('time', { datetime: iso, title: iso }, text));
}
