import type { UserResource } from '@uas/client';
import { paths } from '../state/routes';
import { h } from '../ui/dom';
import { formatTimestamp } from '../ui/format';
import { navLink, type Navigate } from '../ui/nav-link';

export interface RowActions {
  edit(user: UserResource): void;
  toggleActive(user: UserResource, button: HTMLButtonElement): void;
  remove(user: UserResource): void;
}

const COLUMNS = ['Name', 'Email', 'Status', 'Last login', 'Failed logins', 'Created'] as const;

/** The users table; on narrow screens the stylesheet turns each row into a card. */
export function usersTable(navigate: Navigate): {
  element: HTMLTableElement;
  /** @param actions null when the admin may not change users: the rows offer nothing then. */
  show(users: UserResource[], actions: RowActions | null): void;
} {
  const body = h('tbody');
  const element = h(
    'table',
    { class: 'users-table' },
    h('caption', { class: 'visually-hidden' }, 'Users'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...COLUMNS.map((c) => h('th', { scope: 'col' }, c)),
        h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')),
      ),
    ),
    body,
  );
  return {
    element,
    show(users, actions) {
      const focused = focusedAction(body);
      body.replaceChildren(...users.map((user) => row(user, actions, navigate)));
      if (focused) {
        const selector = `tr[data-user-id="${CSS.escape(focused.id)}"] [data-action="${focused.action}"]`;
        body.querySelector<HTMLElement>(selector)?.focus();
      }
    },
  };
}

/** Which row action has focus, so a re-render can give focus back to its successor. */
function focusedAction(body: HTMLElement): { id: string; action: string } | null {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || !body.contains(active)) return null;
  const id = active.closest('tr')?.dataset.userId;
  const action = active.dataset.action;
  return id && action ? { id, action } : null;
}

function row(user: UserResource, actions: RowActions | null, navigate: Navigate): HTMLTableRowElement {
  const { name, email, active, created, last_login, recent_failed_logins } = user.attributes;
  const isActive = active === 1;
  const who = email || user.id;
  const toggle = h(
    'button',
    {
      type: 'button',
      class: 'button small',
      'data-action': 'toggle',
      'aria-label': `${isActive ? 'Deactivate' : 'Activate'} ${who}`,
    },
    isActive ? 'Deactivate' : 'Activate',
  );
  toggle.addEventListener('click', () => actions?.toggleActive(user, toggle));

  return h(
    'tr',
    { 'data-user-id': user.id },
    h('td', { 'data-label': 'Name', class: 'cell-name' }, name || h('span', { class: 'muted' }, '—')),
    h('td', { 'data-label': 'Email', class: 'cell-email' }, navLink(navigate, paths.user(user.id), {}, email)),
    h(
      'td',
      { 'data-label': 'Status' },
      h('span', { class: `badge ${isActive ? 'on' : 'off'}` }, isActive ? 'Active' : 'Inactive'),
    ),
    last_login ? timeCell('Last login', last_login) : h('td', { 'data-label': 'Last login', class: 'muted' }, 'Never'),
    h(
      'td',
      { 'data-label': 'Failed logins', class: `cell-count${recent_failed_logins > 0 ? ' warn' : ''}` },
      recent_failed_logins,
    ),
    timeCell('Created', created),
    h(
      'td',
      { class: 'cell-actions' },
      actions &&
        h(
          'div',
          { class: 'row-actions' },
          h(
            'button',
            {
              type: 'button',
              class: 'button small',
              'data-action': 'edit',
              'aria-label': `Edit ${who}`,
              on: { click: () => actions.edit(user) },
            },
            'Edit',
          ),
          toggle,
          h(
            'button',
            {
              type: 'button',
              class: 'button small danger-text',
              'data-action': 'delete',
              'aria-label': `Delete ${who}`,
              on: { click: () => actions.remove(user) },
            },
            'Delete',
          ),
        ),
    ),
  );
}

function timeCell(label: string, iso: string): HTMLTableCellElement {
  const { text } = formatTimestamp(iso);
  return h('td', { 'data-label': label, class: 'cell-time' }, h('time', { datetime: iso, title: iso }, text));
}
