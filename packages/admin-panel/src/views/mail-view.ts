import { permissionToOpen } from '@uas/domain';
import type { MailMessagePage, MailMessageResource } from '../api/account-api';
import { linkParts } from '../state/mail-links';
import { paths } from '../state/routes';
import { h } from '../ui/dom';
import { errorState } from '../ui/error-state';
import { formatTimestamp } from '../ui/format';
import { appHeader } from './app-header';
import { pagedList } from './paged-list';
import type { ScreenContext, View } from './view';

type ListedMessage = MailMessagePage['data'][number];

/**
 * The outbox: every message the service queued, newest first, with its status; a message still
 * to be sent opens to its text, whose http(s) links are clickable. The HTML part is not shown:
 * the text says the same without any markup to trust.
 */
export function mailView(context: ScreenContext): View {
  const { accounts, can } = context;

  const heading = h('h1', { tabindex: -1, id: 'mail-title' }, 'Mail');
  const intro = h(
    'p',
    { class: 'muted' },
    'Messages the service has queued. Without SMTP_URL nothing is sent, and this is where they wait.',
  );
  const status = h('div', { class: 'list-status', role: 'status' });
  const results = h('section', { class: 'results', 'aria-labelledby': 'mail-title', hidden: true });

  const list = pagedList({
    path: paths.mail,
    status,
    results,
    text: {
      loading: 'Loading messages…',
      failure: 'Could not load messages',
      empty: 'No messages yet.',
      previous: 'Newer',
      next: 'Older',
    },
    fetch: (page, signal) => accounts.mailMessages(page, signal),
    render: (loaded: MailMessagePage) => [
      h(
        'div',
        { class: 'table-wrap' },
        // A body holds its link: a message is offered only to a role its link grants nothing
        // beyond (an administrator's invitation to owners only), as the API judges it.
        mailTable(loaded.data, (kind) => (can(permissionToOpen(kind)) ? (id) => accounts.mailMessage(id) : null)),
      ),
    ],
    range: (total, page) => `${total} ${total === 1 ? 'message' : 'messages'} · page ${page}`,
  });

  void list.load();
  return {
    element: h(
      'div',
      { class: 'shell' },
      appHeader(context, 'mail'),
      h('main', { class: 'page' }, h('div', { class: 'page-head' }, heading), intro, status, results),
    ),
    onLocationChange: list.onLocationChange,
    destroy: list.destroy,
  };
}

/** How a message of a kind is read, or null when the signed-in admin may not open it. */
type Reader = (kind: ListedMessage['attributes']['kind']) => ((id: string) => Promise<MailMessageResource>) | null;

function mailTable(messages: readonly ListedMessage[], readerOf: Reader): HTMLTableElement {
  const columns = ['Queued', 'Kind', 'To', 'Subject', 'Status', 'Attempts', 'Last error', ''];
  return h(
    'table',
    { class: 'audit-table mail-table' },
    h('caption', { class: 'visually-hidden' }, 'Mail messages'),
    h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, ...messages.flatMap((message) => rows(message, columns.length, readerOf(message.attributes.kind)))),
  );
}

function rows(
  { id, attributes }: ListedMessage,
  span: number,
  read: ((id: string) => Promise<MailMessageResource>) | null,
): HTMLTableRowElement[] {
  const { created, kind, recipient, subject, status, attempts, last_error } = attributes;
  const detail = h('tr', { class: 'mail-body-row', hidden: true }, h('td', { colspan: span }));
  const open = h('button', { type: 'button', class: 'button small', 'aria-expanded': 'false' }, 'Show');
  open.addEventListener('click', async () => {
    const opening = detail.hidden;
    detail.hidden = !opening;
    open.setAttribute('aria-expanded', String(opening));
    open.textContent = opening ? 'Hide' : 'Show';
    if (!opening) return;
    const cell = detail.cells[0]!;
    if (!read) return;
    cell.replaceChildren(h('p', { class: 'loading' }, 'Loading…'));
    try {
      const { body } = (await read(id)).attributes;
      cell.replaceChildren(
        body === null
          ? h('p', { class: 'muted' }, 'The body was erased when the message was delivered.')
          : h('pre', { class: 'mail-text' }, ...linked(body.text)),
      );
    } catch (error) {
      cell.replaceChildren(errorState('Could not load the message', error, () => open.click()));
    }
  });
  const { text } = formatTimestamp(created);
  return [
    h(
      'tr',
      { 'data-mail-id': id },
      h('td', { 'data-label': 'Queued', class: 'cell-time' }, h('time', { datetime: created, title: created }, text)),
      h('td', { 'data-label': 'Kind' }, h('code', {}, kind)),
      h('td', { 'data-label': 'To' }, recipient),
      h('td', { 'data-label': 'Subject' }, subject),
      h('td', { 'data-label': 'Status' }, h('span', { class: `mail-status mail-status-${status}` }, status)),
      h('td', { 'data-label': 'Attempts' }, attempts),
      h('td', { 'data-label': 'Last error' }, last_error ?? h('span', { class: 'muted' }, '—')),
      h('td', {}, status === 'delivered' || !read ? null : open),
    ),
    detail,
  ];
}

/** The text with its http(s) links as anchors: text nodes and an href attribute, never markup. */
const linked = (text: string): (HTMLAnchorElement | string)[] =>
  linkParts(text).map((part) =>
    'href' in part ? h('a', { href: part.href, rel: 'noopener noreferrer', target: '_blank' }, part.href) : part.text,
  );
