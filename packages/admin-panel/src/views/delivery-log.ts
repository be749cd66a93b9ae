import { WEBHOOK_LEASE_SECONDS } from '@uas/domain';
import type { DeliveryPage, DeliveryResource } from '../api/webhooks-api';
import { h } from '../ui/dom';
import { errorText } from '../ui/form-errors';
import { formatTimestamp } from '../ui/format';
import { stamp } from '../ui/stamp';
import { pagedList } from './paged-list';

/** Bounds of the wait before the log looks again at a delivery still pending. */
const SOONEST_MS = 2_000;
const LATEST_MS = 60_000;
/** A claimed delivery's next attempt is its lease's end: one due within a lease may be in flight now. */
const IN_FLIGHT_MS = WEBHOOK_LEASE_SECONDS * 1000;

export interface DeliveryLogOptions {
  /** The endpoint page's path: the log's page past the first is its `?page=N`. */
  path: string;
  fetch(page: number, signal: AbortSignal): Promise<DeliveryPage>;
  /** Queues the delivery again; a failure is shown at its row. */
  replay(delivery: DeliveryResource): Promise<void>;
}

/**
 * An endpoint's deliveries, newest first: the event, its number, how it went, each with a
 * "Replay". While one is pending the log looks again: every 2 s while it is due or may be in
 * flight, otherwise shortly after its next attempt (a minute at most); not while the admin is on
 * one of its controls (a reload would take their focus away).
 */
export function deliveryLog(options: DeliveryLogOptions) {
  const status = h('div', { class: 'list-status', role: 'status' });
  const results = h('div', { class: 'results', hidden: true });
  const refresh = h('button', { type: 'button', class: 'button' }, 'Refresh');
  let timer: ReturnType<typeof setTimeout> | undefined;

  const list = pagedList({
    path: options.path,
    status,
    results,
    text: {
      loading: 'Loading deliveries…',
      failure: 'Could not load the deliveries',
      empty: 'Nothing delivered yet. Send a test event to try the endpoint.',
      previous: 'Newer',
      next: 'Older',
    },
    fetch: options.fetch,
    render: (loaded: DeliveryPage) => {
      watch(loaded.data);
      return [h('div', { class: 'table-wrap' }, table(loaded.data))];
    },
    range: (total, page) => `${total} ${total === 1 ? 'delivery' : 'deliveries'} · page ${page}`,
  });
  refresh.addEventListener('click', () => void list.load());

  function watch(deliveries: readonly DeliveryResource[]): void {
    clearTimeout(timer);
    const due = deliveries.flatMap(({ attributes }) =>
      attributes.status === 'pending' && attributes.next_attempt ? [Date.parse(attributes.next_attempt)] : [],
    );
    if (due.length === 0) return;
    const soonest = Math.min(...due) - Date.now();
    const wait = soonest <= IN_FLIGHT_MS ? SOONEST_MS : Math.min(LATEST_MS, soonest + SOONEST_MS);
    timer = setTimeout(() => {
      if (results.contains(document.activeElement)) watch(deliveries);
      else void list.load();
    }, wait);
  }

  function table(deliveries: readonly DeliveryResource[]): HTMLTableElement {
    const columns = ['Created', 'Event', 'Number', 'Status', 'Attempts', 'Next attempt', 'Response', 'Duration'];
    return h(
      'table',
      { class: 'users-table deliveries-table' },
      h('caption', { class: 'visually-hidden' }, 'Deliveries'),
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
      h('tbody', {}, ...deliveries.map(row)),
    );
  }

  function row(delivery: DeliveryResource): HTMLTableRowElement {
    const { created, event_type, sequence, status: state, attempts, next_attempt } = delivery.attributes;
    const { last_status, last_error, last_duration_ms } = delivery.attributes;
    const problem = h('p', { class: 'field-error', hidden: true });
    const replay = h(
      'button',
      {
        type: 'button',
        class: 'button small',
        'aria-label': `Replay ${event_type} of ${formatTimestamp(created).text}`,
      },
      'Replay',
    );
    replay.addEventListener('click', async () => {
      if (replay.getAttribute('aria-disabled') === 'true') return;
      replay.setAttribute('aria-disabled', 'true');
      problem.hidden = true;
      try {
        await options.replay(delivery);
        await list.load();
      } catch (error) {
        problem.textContent = errorText(error);
        problem.hidden = false;
        replay.removeAttribute('aria-disabled');
      }
    });
    const none = () => h('span', { class: 'muted' }, '—');
    return h(
      'tr',
      { 'data-delivery-id': delivery.id },
      h('td', { 'data-label': 'Created', class: 'cell-time' }, stamp(created)),
      h('td', { 'data-label': 'Event' }, h('code', {}, event_type)),
      h('td', { 'data-label': 'Number' }, sequence ?? none()),
      h('td', { 'data-label': 'Status' }, h('span', { class: `delivery-status delivery-status-${state}` }, state)),
      h('td', { 'data-label': 'Attempts' }, attempts),
      h(
        'td',
        { 'data-label': 'Next attempt', class: 'cell-time' },
        state === 'pending' && next_attempt ? stamp(next_attempt) : none(),
      ),
      h(
        'td',
        { 'data-label': 'Response' },
        last_status ?? (last_error ? null : none()),
        last_error ? h('span', { class: 'muted delivery-error' }, ` ${last_error}`) : null,
      ),
      h('td', { 'data-label': 'Duration' }, last_duration_ms === null ? none() : `${last_duration_ms} ms`),
      h('td', { class: 'cell-actions' }, replay, problem),
    );
  }

  return {
    element: h('div', { class: 'delivery-log' }, status, results),
    refresh,
    load: list.load,
    onLocationChange: list.onLocationChange,
    destroy(): void {
      clearTimeout(timer);
      list.destroy();
    },
  };
}
