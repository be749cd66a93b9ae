import { isAbort } from '@uas/client';
import { ALL_WEBHOOK_EVENTS } from '@uas/domain';
import type { WebhookResource } from '../api/webhooks-api';
import { paths } from '../state/routes';
import { webhookStatus } from '../state/webhook-status';
import { h } from '../ui/dom';
import { errorState } from '../ui/error-state';
import { navLink } from '../ui/nav-link';
import { stamp } from '../ui/stamp';
import { appHeader } from './app-header';
import type { ScreenContext, View } from './view';
import { openWebhookForm } from './webhook-form-dialog';
import { webhooksNotice } from './webhooks-notice';

/**
 * Webhook endpoints (owners only): each with its URL, events and whether it receives them, a
 * notice when the service disabled one, and a way to add one. An endpoint's own page edits it,
 * rotates its secret and shows its deliveries.
 */
export function webhooksView(context: ScreenContext): View {
  const { webhooks, navigate, can } = context;
  const abort = new AbortController();
  const heading = h('h1', { tabindex: -1, id: 'webhooks-title' }, 'Webhooks');
  const intro = h(
    'p',
    { class: 'muted' },
    'Each endpoint receives the events it subscribes to, signed to the Standard Webhooks specification and retried until it answers 2xx. docs/API.md lists the events and how to verify them.',
  );
  const create = h('button', { type: 'button', class: 'button primary' }, 'New endpoint');
  const notice = h('div', { class: 'notice-slot' });
  const listed = h('section', {
    class: 'card webhooks-list',
    'aria-labelledby': 'endpoints-title',
    'aria-busy': 'true',
  });

  // The list is read again behind the dialog that shows the new endpoint's secret.
  create.addEventListener('click', () => openWebhookForm({ webhooks, onSaved: () => void load() }));

  async function load(): Promise<void> {
    const title = h('h2', { id: 'endpoints-title', tabindex: -1 }, 'Endpoints');
    listed.setAttribute('aria-busy', 'true');
    try {
      const rows = await webhooks.list(abort.signal);
      notice.replaceChildren(webhooksNotice(rows, navigate) ?? '');
      listed.replaceChildren(
        title,
        rows.length === 0
          ? h('p', { class: 'muted' }, 'No endpoint yet: events are delivered nowhere.')
          : h('div', { class: 'table-wrap' }, table(rows)),
      );
    } catch (error) {
      if (isAbort(error)) return;
      listed.replaceChildren(
        title,
        errorState('Could not load the endpoints', error, () => void load()),
      );
    } finally {
      listed.setAttribute('aria-busy', 'false');
    }
  }

  function table(rows: readonly WebhookResource[]): HTMLTableElement {
    return h(
      'table',
      { class: 'users-table webhooks-table' },
      h('caption', { class: 'visually-hidden' }, 'Webhook endpoints'),
      h(
        'thead',
        {},
        h('tr', {}, ...['URL', 'Events', 'Status', 'Failing since'].map((c) => h('th', { scope: 'col' }, c))),
      ),
      h('tbody', {}, ...rows.map(row)),
    );
  }

  function row({ id, attributes }: WebhookResource): HTMLTableRowElement {
    const status = webhookStatus(attributes);
    return h(
      'tr',
      { 'data-webhook-id': id },
      h(
        'td',
        { 'data-label': 'URL', class: 'cell-url' },
        navLink(navigate, paths.webhook(id), {}, attributes.url),
        attributes.description ? h('span', { class: 'muted cell-description' }, attributes.description) : null,
      ),
      h('td', { 'data-label': 'Events' }, eventsText(attributes.events)),
      h('td', { 'data-label': 'Status' }, h('span', { class: `badge ${status.tone}` }, status.text)),
      h(
        'td',
        { 'data-label': 'Failing since', class: 'cell-time' },
        attributes.failing_since ? stamp(attributes.failing_since) : h('span', { class: 'muted' }, '—'),
      ),
    );
  }

  // Reached by its address without the role for it: say so rather than offer what the API refuses.
  const allowed = can('settings.manage');
  if (allowed) void load();
  return {
    element: h(
      'div',
      { class: 'shell' },
      appHeader(context, 'webhooks'),
      h(
        'main',
        { class: 'page' },
        h('div', { class: 'page-head' }, heading, allowed && h('div', { class: 'page-actions' }, create)),
        ...(allowed
          ? [intro, notice, listed]
          : [h('p', { role: 'alert' }, 'Only owners manage webhooks. Your role is shown at the top of the page.')]),
      ),
    ),
    destroy() {
      abort.abort();
    },
  };
}

/** "All events", or the event types one after another. */
export const eventsText = (events: readonly string[]): string =>
  events.includes(ALL_WEBHOOK_EVENTS) ? 'All events' : events.join(', ');
