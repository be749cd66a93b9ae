import { isAbort } from '@uas/client';
import type { MailMessagePage, MailMessageResource } from '../api/account-api';
import { linkParts } from '../state/mail-links';
import { paths } from '../state/routes';
import { h } from '../ui/dom';
import { errorState } from '../ui/error-state';
import { formatTimestamp } from '../ui/format';
import { appHeader } from './app-header';
import type { ScreenContext, View } from './view';

type ListedMessage = MailMessagePage['data'][number];

const pageOf = (search: string): number => Math.max(1, Number(new URLSearchParams(search).get('page')) || 1);

/**
 * The outbox: every message the service queued, newest first, with its status; a message still
 * to be sent opens to its text, whose http(s) links are clickable. The HTML part is not shown:
 * the text says the same without any markup to trust.
 */
export function mailView(context: ScreenContext): View {
  const { accounts } = context;
  let page = pageOf(location.search);
  let inFlight: AbortController | null = null;

  const heading = h('h1', { tabindex: -1, id: 'mail-title' }, 'Mail');
  const intro = h(
    'p',
    { class: 'muted' },
    'Messages the service has queued. Without SMTP_URL nothing is sent, and this is where they wait.',
  );
  const status = h('div', { class: 'list-status', role: 'status' });
  const results = h('section', { class: 'results', 'aria-labelledby': 'mail-title', hidden: true });

  async function load(): Promise<void> {
    inFlight?.abort();
    const mine = new AbortController();
    inFlight = mine;
    if (results.hidden) status.replaceChildren(h('p', { class: 'loading' }, 'Loading messages…'));
    try {
      const loaded = await accounts.mailMessages(page, mine.signal);
      if (inFlight === mine) show(loaded);
    } catch (error) {
      if (isAbort(error) || inFlight !== mine) return;
      results.hidden = true;
      status.replaceChildren(errorState('Could not load messages', error, () => void load()));
    }
  }

  function go(next: number): void {
    page = next;
    const url = next === 1 ? paths.mail : `${paths.mail}?page=${next}`;
    if (url !== location.pathname + location.search) history.pushState(null, '', url);
    void load();
  }

  function show(loaded: MailMessagePage): void {
    const total = loaded.meta.total;
    results.hidden = total === 0;
    status.replaceChildren(...(total === 0 ? [h('div', { class: 'empty' }, h('p', {}, 'No messages yet.'))] : []));
    const step = (label: string, link: string | null, to: number) =>
      h('button', { type: 'button', class: 'button small', disabled: !link, on: { click: () => go(to) } }, label);
    results.replaceChildren(
      h(
        'div',
        { class: 'table-wrap' },
        mailTable(loaded.data, (id) => accounts.mailMessage(id)),
      ),
      h(
        'nav',
        { class: 'pagination', 'aria-label': 'Pagination' },
        h(
          'p',
          { class: 'range', 'aria-live': 'polite' },
          `${total} ${total === 1 ? 'message' : 'messages'} · page ${page}`,
        ),
        h(
          'div',
          { class: 'pager' },
          step('Newer', loaded.links.prev, page - 1),
          step('Older', loaded.links.next, page + 1),
        ),
      ),
    );
  }

  void load();
  return {
    element: h(
      'div',
      { class: 'shell' },
      appHeader(context, 'mail'),
      h('main', { class: 'page' }, h('div', { class: 'page-head' }, heading), intro, status, results),
    ),
    onLocationChange() {
      const next = pageOf(location.search);
      if (next === page) return;
      page = next;
      void load();
    },
    destroy() {
      inFlight?.abort();
    },
  };
}

function mailTable(
  messages: readonly ListedMessage[],
  read: (id: string) => Promise<MailMessageResource>,
): HTMLTableElement {
  const columns = ['Queued', 'Kind', 'To', 'Subject', 'Status', 'Attempts', 'Last error', ''];
  return h(
    'table',
    { class: 'audit-table mail-table' },
    h('caption', { class: 'visually-hidden' }, 'Mail messages'),
    h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, ...messages.flatMap((message) => rows(message, columns.length, read))),
  );
}

function rows(
  { id, attributes }: ListedMessage,
  span: number,
  read: (id: string) => Promise<MailMessageResource>,
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
      h('td', {}, status === 'delivered' ? null : open),
    ),
    detail,
  ];
}

/** The text with its http(s) links as anchors: text nodes and an href attribute, never markup. */
const linked = (text: string): (HTMLAnchorElement | string)[] =>
  linkParts(text).map((part) =>
    'href' in part ? h('a', { href: part.href, rel: 'noopener noreferrer', target: '_blank' }, part.href) : part.text,
  );
