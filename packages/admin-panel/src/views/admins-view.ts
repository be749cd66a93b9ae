import { ADMIN_ROLES } from '@uas/domain';
import type { AdminInvitationResource, AdminResource } from '../api/admins-api';
import type { AdminRole } from '../state/permissions';
import { confirmAction } from '../ui/confirm-dialog';
import { h, uniqueId } from '../ui/dom';
import { errorState } from '../ui/error-state';
import { field } from '../ui/field';
import { errorText, FormErrors } from '../ui/form-errors';
import { sendForm } from '../ui/send-form';
import { formatTimestamp } from '../ui/format';
import { toast } from '../ui/toast';
import { appHeader } from './app-header';
import type { ScreenContext, View } from './view';

/**
 * Administrators (owners only): who they are and their role, an invitation by email with the role
 * they will have, a change of role and a removal. The API keeps one owner at least (409 last_owner).
 */
export function adminsView(context: ScreenContext): View {
  const { admins, me, can } = context;
  const abort = new AbortController();
  const heading = h('h1', { tabindex: -1, id: 'admins-title' }, 'Admins');
  const listed = h('section', {
    class: 'card admins-list',
    'aria-labelledby': 'admins-list-title',
    'aria-busy': 'true',
  });

  const email = field('Email', h('input', { type: 'email', name: 'email', required: true, autocomplete: 'off' }));
  const name = field('Name', h('input', { type: 'text', name: 'name', autocomplete: 'off' }), 'Optional.');
  const role = field(
    'Role',
    roleSelect('role', null),
    'What they may do once they have joined: the API documentation lists what each role allows.',
  );
  const errors = new FormErrors({ email, name, role });
  const submit = h('button', { type: 'submit', class: 'button primary' }, 'Invite');
  const form = h(
    'form',
    { class: 'card invite-form', 'aria-labelledby': 'invite-admin-title', novalidate: true },
    h('h2', { id: 'invite-admin-title' }, 'Invite an admin'),
    h(
      'p',
      { class: 'muted' },
      'They get a link by email, valid 48 hours, to choose their password. Without SMTP_URL it waits on the Mail page.',
    ),
    errors.element,
    h('div', { class: 'form-grid' }, email.element, name.element, role.element),
    h('div', { class: 'dialog-actions' }, submit),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void invite();
  });

  async function invite(): Promise<void> {
    errors.clear();
    const address = email.control.value.trim();
    const chosen = role.control.value as AdminRole | '';
    const problems: Record<string, string> = {};
    if (!address) problems.email = 'Enter the address to invite.';
    if (!chosen) problems.role = 'Choose the role they will have.';
    if (errors.showProblems(problems) || !chosen) return;
    await sendForm(form, submit, errors, async () => {
      const invitee = name.control.value.trim();
      await admins.invite({ email: address, role: chosen, ...(invitee ? { name: invitee } : {}) });
      form.reset();
      toast(`Invitation sent to ${address}.`);
      await load();
    });
  }

  async function load(): Promise<void> {
    const title = h('h2', { id: 'admins-list-title', tabindex: -1 }, 'Administrators');
    listed.setAttribute('aria-busy', 'true');
    try {
      const [list, invited] = await Promise.all([admins.list(abort.signal), admins.pendingInvitations(abort.signal)]);
      listed.replaceChildren(title, h('div', { class: 'table-wrap' }, adminTable(list)), ...pending(invited));
    } catch (error) {
      if (abort.signal.aborted) return;
      listed.replaceChildren(
        title,
        errorState('Could not load the admins', error, () => void load()),
      );
    } finally {
      listed.setAttribute('aria-busy', 'false');
    }
  }

  function adminTable(rows: readonly AdminResource[]): HTMLTableElement {
    return h(
      'table',
      { class: 'users-table admins-table' },
      h('caption', { class: 'visually-hidden' }, 'Administrators'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['Email', 'Name', 'Role', 'Since'].map((c) => h('th', { scope: 'col' }, c)),
          h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')),
        ),
      ),
      h('tbody', {}, ...rows.map(row)),
    );
  }

  function row(admin: AdminResource): HTMLTableRowElement {
    const { email: address, name: who, role: current, created } = admin.attributes;
    const you = admin.id === me.id ? ' (you)' : '';
    const select = roleSelect(`role-${admin.id}`, current as AdminRole);
    select.setAttribute('aria-label', `Role of ${address}`);
    const problem = h('p', { class: 'field-error', id: uniqueId('role-error'), hidden: true });
    const save = h(
      'button',
      { type: 'button', class: 'button small', 'aria-label': `Save the role of ${address}` },
      'Save role',
    );
    const remove = h(
      'button',
      { type: 'button', class: 'button small danger-text', 'aria-label': `Remove ${address}` },
      'Remove',
    );
    const showProblem = (message: string | null) => {
      problem.textContent = message ?? '';
      problem.hidden = message === null;
      select.setAttribute('aria-invalid', String(message !== null));
      if (message === null) select.removeAttribute('aria-describedby');
      else select.setAttribute('aria-describedby', problem.id);
    };
    save.addEventListener('click', async () => {
      if (save.getAttribute('aria-disabled') === 'true') return;
      showProblem(null);
      save.setAttribute('aria-disabled', 'true');
      try {
        const changed = await admins.changeRole(admin.id, select.value as AdminRole);
        toast(`${address} is now ${changed.attributes.role}.`);
        // A change of one's own role changes what this page may show: the app reads it again.
        if (admin.id === me.id) context.navigate(location.pathname);
        else await load();
      } catch (error) {
        showProblem(errorText(error));
        select.focus();
      } finally {
        save.removeAttribute('aria-disabled');
      }
    });
    remove.addEventListener('click', async () => {
      const done = await confirmAction({
        title: 'Remove the admin?',
        message: `${address}${you} will be signed out everywhere and can no longer sign in to the panel or the API.`,
        confirmLabel: 'Remove',
        action: () => admins.remove(admin.id),
      });
      if (!done) return;
      toast(`${address} is no longer an admin.`);
      if (admin.id === me.id) context.onSignedOut();
      else {
        await load();
        listed.querySelector<HTMLElement>('h2')?.focus();
      }
    });
    return h(
      'tr',
      { 'data-admin-id': admin.id },
      h('td', { 'data-label': 'Email', class: 'cell-email' }, address, you),
      h('td', { 'data-label': 'Name' }, who || h('span', { class: 'muted' }, '—')),
      h('td', { 'data-label': 'Role', class: 'cell-role' }, h('div', { class: 'role-change' }, select, save), problem),
      h('td', { 'data-label': 'Since', class: 'cell-time' }, stamp(created)),
      h('td', { class: 'cell-actions' }, remove),
    );
  }

  /** The invitations not accepted yet, each with its role, its link's end, and a way to withdraw it. */
  function pending(invited: readonly AdminInvitationResource[]): HTMLElement[] {
    if (invited.length === 0) return [];
    return [
      h('h3', { id: 'pending-admins-title', tabindex: -1 }, 'Invited, not joined yet'),
      h('ul', { class: 'pending-admins', 'aria-labelledby': 'pending-admins-title' }, ...invited.map(invitation)),
    ];
  }

  function invitation({ id, attributes }: AdminInvitationResource): HTMLLIElement {
    const withdraw = h(
      'button',
      {
        type: 'button',
        class: 'button small danger-text',
        'aria-label': `Withdraw the invitation of ${attributes.email}`,
      },
      'Withdraw',
    );
    withdraw.addEventListener('click', async () => {
      const done = await confirmAction({
        title: 'Withdraw the invitation?',
        message: `The link sent to ${attributes.email} stops working.`,
        confirmLabel: 'Withdraw',
        action: () => admins.withdraw(id),
      });
      if (!done) return;
      toast(`The invitation of ${attributes.email} is withdrawn.`);
      await load();
      listed.querySelector<HTMLElement>('h2')?.focus();
    });
    return h(
      'li',
      { 'data-invitation-id': id },
      h('span', {}, `${attributes.email} · ${attributes.role} · link expires `, stamp(attributes.expires)),
      withdraw,
    );
  }

  // Reached by its address without the role for it: say so rather than offer what the API refuses.
  const content = can('admins.manage')
    ? [form, listed]
    : [h('p', { role: 'alert' }, 'Only owners manage administrators. Your role is shown at the top of the page.')];
  if (can('admins.manage')) void load();
  return {
    element: h(
      'div',
      { class: 'shell' },
      appHeader(context, 'admins'),
      h('main', { class: 'page' }, h('div', { class: 'page-head' }, heading), ...content),
    ),
    destroy() {
      abort.abort();
    },
  };
}

/** A choice among the roles, each with what it allows; `selected` null asks for a choice. */
function roleSelect(name: string, selected: AdminRole | null): HTMLSelectElement {
  return h(
    'select',
    { name, required: true },
    selected === null ? h('option', { value: '', selected: true }, 'Choose a role…') : null,
    ...ADMIN_ROLES.map((value) => h('option', { value, selected: value === selected }, value)),
  );
}

function stamp(iso: string): HTMLElement {
  return h('time', { datetime: iso, title: iso }, formatTimestamp(iso).text);
}
