import type { IdentityResource } from '../api/identity-providers-api';
import { h } from '../ui/dom';
import { formatTimestamp } from '../ui/format';

/** A user's accounts at sign-in providers; each with an Unlink button when `unlink` is given. */
export function identityTable(
  listed: readonly IdentityResource[],
  unlink: ((identity: IdentityResource) => void) | null,
): HTMLElement {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'identities-table' },
      h('caption', { class: 'visually-hidden' }, 'Linked sign-in providers'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['Provider', 'Account', 'Email', 'Linked', 'Last sign-in'].map((c) => h('th', { scope: 'col' }, c)),
          h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')),
        ),
      ),
      h('tbody', {}, ...listed.map((identity) => row(identity, unlink))),
    ),
  );
}

function row(identity: IdentityResource, unlink: ((identity: IdentityResource) => void) | null): HTMLTableRowElement {
  const { provider, provider_kind, subject, email, email_verified, created, last_sign_in } = identity.attributes;
  const button =
    unlink &&
    h(
      'button',
      { type: 'button', class: 'button small danger-text', 'aria-label': `Unlink ${provider} account ${subject}` },
      'Unlink',
    );
  button?.addEventListener('click', () => unlink?.(identity));
  return h(
    'tr',
    { 'data-identity-id': identity.id },
    h('td', { 'data-label': 'Provider' }, h('code', {}, provider), ' ', h('span', { class: 'muted' }, provider_kind)),
    h('td', { 'data-label': 'Account' }, h('code', {}, subject)),
    h(
      'td',
      { 'data-label': 'Email' },
      email ?? h('span', { class: 'muted' }, 'none given'),
      email && !email_verified ? h('span', { class: 'badge off' }, 'Not verified by the provider') : null,
    ),
    time('Linked', created),
    last_sign_in ? time('Last sign-in', last_sign_in) : h('td', { 'data-label': 'Last sign-in' }, 'Never'),
    h('td', { class: 'cell-actions' }, button),
  );
}

function time(label: string, iso: string): HTMLTableCellElement {
  return h(
    'td',
    { 'data-label': label, class: 'cell-time' },
    h('time', { datetime: iso, title: iso }, formatTimestamp(iso).text),
  );
}
