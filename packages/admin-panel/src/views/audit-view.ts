import { AUDIT_ACTIONS, isAbort } from '@uas/client';
import type { AuditEventPage } from '../api/account-api';
import {
  auditApiPathOf,
  auditLocationSearchOf,
  auditQueryFromApiLink,
  auditQueryFromLocation,
  sameAuditQuery,
  type AuditQuery,
} from '../state/audit-query';
import { paths } from '../state/routes';
import { h } from '../ui/dom';
import { errorState } from '../ui/error-state';
import { field } from '../ui/field';
import { fromLocalInput, toLocalInput } from '../ui/local-time';
import { accountPicker, type KnownAccount } from './account-picker';
import { appHeader } from './app-header';
import { auditTable } from './audit-table';
import type { ScreenContext, View } from './view';

/** The audit log: every recorded event, newest first, narrowed by the API's filters. */
export function auditView(context: ScreenContext): View {
  const { accounts, navigate, users, admins, me, can } = context;
  let query = auditQueryFromLocation(location.search);
  let inFlight: AbortController | null = null;

  const heading = h('h1', { tabindex: -1 }, 'Audit log');
  // An owner sees every admin (and so may filter by any of them); others know only themselves.
  let known: Promise<readonly KnownAccount[]> | null = null;
  const knownAdmins = (): Promise<readonly KnownAccount[]> => {
    known ??= can('admins.manage')
      ? admins.list().then((listed) => listed.map(({ id, attributes }) => ({ id, email: attributes.email })))
      : Promise.resolve([{ id: me.id, email: me.email }]);
    return known;
  };
  const pickers = {
    target: accountPicker({
      label: 'Target',
      hint: 'A user’s email or id',
      name: 'target',
      users,
      admins: knownAdmins,
    }),
    actor: accountPicker({
      label: 'Actor',
      hint: 'An admin’s or a user’s email or id',
      name: 'actor',
      users,
      admins: knownAdmins,
    }),
  };
  const inputs = {
    target: pickers.target.field,
    actor: pickers.actor.field,
    action: field(
      'Action',
      h(
        'select',
        { name: 'action' },
        h('option', { value: '' }, 'Any'),
        ...AUDIT_ACTIONS.map((a) => h('option', { value: a }, a)),
      ),
    ),
    since: field('Since', h('input', { type: 'datetime-local', name: 'since' })),
    until: field('Until', h('input', { type: 'datetime-local', name: 'until' })),
  };
  const apply = h('button', { type: 'submit', class: 'button primary' }, 'Apply filters');
  const clear = h('button', { type: 'button', class: 'button' }, 'Clear');
  const form = h(
    'form',
    { class: 'filters', 'aria-label': 'Filters' },
    h('div', { class: 'filter-grid' }, ...Object.values(inputs).map((f) => f.element)),
    h('div', { class: 'filter-actions' }, clear, apply),
  );
  const status = h('div', { class: 'list-status', role: 'status' });
  const results = h('section', { class: 'results', 'aria-labelledby': 'audit-title', hidden: true });
  heading.id = 'audit-title';

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void submit();
  });
  async function submit(): Promise<void> {
    const [target, actor] = await Promise.all([pickers.target.resolve(), pickers.actor.resolve()]);
    for (const [name, id] of [
      ['target', target],
      ['actor', actor],
    ] as const)
      pickers[name].field.setError(id === null ? 'No admin or user has this email.' : null);
    if (target === null || actor === null) return;
    go({
      target,
      actor,
      action: inputs.action.control.value,
      since: fromLocalInput(inputs.since.control.value),
      until: fromLocalInput(inputs.until.control.value),
      page: 1,
    });
  }
  clear.addEventListener('click', () => go(auditQueryFromLocation('')));

  function fill(next: AuditQuery): void {
    pickers.target.show(next.target);
    pickers.actor.show(next.actor);
    inputs.action.control.value = next.action;
    inputs.since.control.value = toLocalInput(next.since);
    inputs.until.control.value = toLocalInput(next.until);
  }

  function go(next: AuditQuery, apiPath?: string): void {
    query = next;
    const url = `${paths.audit}${auditLocationSearchOf(next)}`;
    if (url !== location.pathname + location.search) history.pushState(null, '', url);
    fill(next);
    void load(apiPath);
  }

  async function load(apiPath = auditApiPathOf(query)): Promise<void> {
    inFlight?.abort();
    const mine = new AbortController();
    inFlight = mine;
    results.setAttribute('aria-busy', 'true');
    if (results.hidden) status.replaceChildren(h('p', { class: 'loading' }, 'Loading events…'));
    try {
      const page = await accounts.auditEvents(apiPath, mine.signal);
      if (inFlight === mine) await show(page);
    } catch (error) {
      if (isAbort(error) || inFlight !== mine) return;
      results.hidden = true;
      status.replaceChildren(errorState('Could not load events', error, () => void load()));
    } finally {
      if (inFlight === mine) results.setAttribute('aria-busy', 'false');
    }
  }

  async function show(page: AuditEventPage): Promise<void> {
    const emails = new Map((await knownAdmins().catch(() => [])).map(({ id, email }) => [id, email]));
    const total = page.meta.total;
    results.hidden = total === 0;
    status.replaceChildren(
      ...(total === 0 ? [h('div', { class: 'empty' }, h('p', {}, 'No events match these filters.'))] : []),
    );
    const step = (label: string, link: string | null) => {
      const target = auditQueryFromApiLink(link);
      const button = h(
        'button',
        { type: 'button', class: 'button small', disabled: !target || target.page === query.page },
        label,
      );
      button.addEventListener('click', () => target && link && go(target, link));
      return button;
    };
    results.replaceChildren(
      h('div', { class: 'table-wrap' }, auditTable(page.data, navigate, emails)),
      h(
        'nav',
        { class: 'pagination', 'aria-label': 'Pagination' },
        h(
          'p',
          { class: 'range', 'aria-live': 'polite' },
          `${total} ${total === 1 ? 'event' : 'events'} · page ${query.page}`,
        ),
        h('div', { class: 'pager' }, step('Newer', page.links.prev), step('Older', page.links.next)),
      ),
    );
  }

  fill(query);
  void load();
  return {
    element: h(
      'div',
      { class: 'shell' },
      appHeader(context, 'audit'),
      h('main', { class: 'page' }, h('div', { class: 'page-head' }, heading), form, status, results),
    ),
    onLocationChange() {
      const next = auditQueryFromLocation(location.search);
      if (sameAuditQuery(next, query)) return;
      query = next;
      fill(next);
      void load();
    },
    destroy() {
      inFlight?.abort();
      pickers.target.destroy();
      pickers.actor.destroy();
    },
  };
}
